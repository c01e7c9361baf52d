package dev.gauntlet.sql.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A server's log file, read from a mark: take {@link #mark()} before a step, and a failure of that step quotes what
 * the server wrote since ({@link #tail}), on one line. A log that cannot be read reads as empty.
 */
final class ServerLog {

    /** How many of the last lines a failure quotes. */
    private static final int TAIL_LINES = 6;

    private final Path file;

    ServerLog(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Where the log ends now. */
    long mark() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** What was written since {@code mark} (the whole log if it has since been truncated). */
    String since(long mark) {
        try (InputStream in = Files.newInputStream(file)) {
            long size = Files.size(file);
            in.skipNBytes(mark <= size ? mark : 0);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last lines written since {@code mark}, on one line; of the whole log when {@code mark} is negative. */
    String tail(long mark) {
        return oneLine(lastLines(since(Math.max(0, mark)), TAIL_LINES));
    }

    /** The last {@code count} non-blank lines of {@code text}, joined with " | ". */
    static String lastLines(String text, int count) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    /** {@code text} on one line, at most its last 1,500 characters. */
    static String oneLine(String text) {
        String line = text.replaceAll("\\s*[\\r\\n]+\\s*", " | ").strip();
        return line.length() > 1500 ? "..." + line.substring(line.length() - 1500) : line;
    }
}

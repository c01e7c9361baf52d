package dev.gauntlet.core.host;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program run to completion on this machine, the one way Gauntlet does it: stdin empty, stdout and stderr together
 * into a file (so a talkative program never blocks on a full pipe), bounded by a time limit after which it is killed,
 * and its outcome as data. Optionally in a directory, without the caller's variables of a prefix ({@code PG}: so
 * PostgreSQL's tools see only the arguments given), with variables set ({@code LC_ALL=C}: messages in English).
 *
 * <pre>{@code
 * HostCommand.Outcome o = HostCommand.of("fsfreeze", "-f", "/mnt/x").within(Duration.ofMinutes(2)).run();
 * if (!o.succeeded()) throw new IOException(o.failure());
 * }</pre>
 */
public final class HostCommand {

    private final List<String> command;
    private Duration limit = Duration.ofSeconds(60);
    private Path directory;
    private final List<String> removedPrefixes = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();

    private HostCommand(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command");
        }
        this.command = List.copyOf(command);
    }

    public static HostCommand of(List<String> command) {
        return new HostCommand(command);
    }

    public static HostCommand of(String... command) {
        return new HostCommand(List.of(command));
    }

    /** Killed, and the outcome {@link Outcome#timedOut}, when it runs longer (default 60 s). */
    public HostCommand within(Duration time) {
        this.limit = time;
        return this;
    }

    public HostCommand in(Path workingDirectory) {
        this.directory = workingDirectory;
        return this;
    }

    /** Without the caller's environment variables whose names start with {@code prefix}. */
    public HostCommand withoutEnvironment(String prefix) {
        removedPrefixes.add(prefix);
        return this;
    }

    public HostCommand env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public List<String> command() {
        return command;
    }

    /**
     * Runs it and waits. Throws {@link IOException} when it cannot start; {@link InterruptedException} when the
     * waiting thread is interrupted (the program is killed first).
     */
    public Outcome run() throws IOException, InterruptedException {
        Path output = Files.createTempFile("gauntlet-command-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            builder.environment().keySet().removeIf(k -> removedPrefixes.stream().anyMatch(k::startsWith));
            builder.environment().putAll(environment);
            Process process = builder.start();
            boolean finished;
            try {
                finished = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                throw e;
            }
            if (!finished) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            return new Outcome(this, finished ? process.exitValue() : -1, !finished,
                    Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** What a program did: its exit code (-1 when it timed out and was killed) and everything it printed. */
    public record Outcome(HostCommand ran, int exitCode, boolean timedOut, String output) {

        public boolean succeeded() {
            return !timedOut && exitCode == 0;
        }

        /** One line saying why it did not succeed, with the end of its output. */
        public String failure() {
            String said = output.strip().replaceAll("\\s*\\n\\s*", " / ");
            if (said.length() > 400) {
                said = "..." + said.substring(said.length() - 400);
            }
            return String.join(" ", ran.command) + (timedOut ? " did not finish within " + ran.limit.toSeconds() + " s"
                    : " failed (exit " + exitCode + ")") + (said.isEmpty() ? "" : ": " + said);
        }
    }
}

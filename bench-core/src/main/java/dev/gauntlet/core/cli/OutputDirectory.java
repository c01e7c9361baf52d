package dev.gauntlet.core.cli;

import dev.gauntlet.core.result.ResultFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where a run writes, checked before the run starts: an unwritable directory or one that already holds a
 * result is refused up front, so no run's work is lost at the end and no old result is overwritten.
 */
public final class OutputDirectory {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private OutputDirectory() {
    }

    public static Path defaultFor(String workload, String variant) {
        String name = workload + (variant == null ? "" : "-" + variant.replaceAll("[^A-Za-z0-9._-]+", "_"))
                + "-" + LocalDateTime.now().format(STAMP);
        return Paths.get("results", name);
    }

    /** Refuses a directory that cannot be written or already holds a result; creates nothing. */
    public static Path check(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException("--out " + dir + " is a file, not a directory");
        }
        if (Files.isRegularFile(ResultFile.locate(dir))) {
            throw new BadInputException("--out " + dir + " already holds a result.json; choose another directory");
        }
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            throw new BadInputException("cannot write to --out " + dir + " ("
                    + (existing == null ? "no existing parent" : existing + " is not a writable directory") + ")");
        }
        return dir;
    }

    /** Creates the checked directory when the run starts. */
    public static Path create(Path dir) {
        try {
            return Files.createDirectories(check(dir));
        } catch (IOException e) {
            throw new BadInputException("cannot create --out " + dir + " (" + e.getMessage() + ")");
        }
    }
}

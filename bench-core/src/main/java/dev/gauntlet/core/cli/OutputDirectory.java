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

    /**
     * {@code results/<workload>[-<variant>]-<yyyyMMdd-HHmmss>-<6 hex>}: the time for people, a random suffix so two
     * drivers started in the same second (an Indexed Job's pods, all pid 1, on one shared volume) never share one.
     */
    public static Path defaultFor(String workload, String variant) {
        String name = workload + (variant == null ? "" : "-" + variant.replaceAll("[^A-Za-z0-9._-]+", "_"))
                + "-" + LocalDateTime.now().format(STAMP)
                + String.format("-%06x", java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 24));
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
        probe(dir, existing);
        return dir;
    }

    /**
     * Permission bits do not tell everything (root "may write" to /proc; a read-only mount says yes too): create and
     * remove a hidden directory where the output will go, so the run is refused now, not after an hour.
     */
    private static void probe(Path dir, Path existing) {
        try {
            Files.delete(Files.createTempDirectory(existing, ".gauntlet-probe-"));
        } catch (IOException | UnsupportedOperationException e) {
            throw new BadInputException("cannot write to --out " + dir + " (creating a directory in " + existing
                    + " failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
        }
    }

    /** Creates the checked directory when the run starts. */
    public static Path create(Path dir) {
        try {
            Files.createDirectories(check(dir));
            return dir; // as the user gave it, so printed paths read as typed
        } catch (IOException e) {
            throw new BadInputException("cannot create --out " + dir + " (" + e.getMessage() + ")");
        }
    }
}

package dev.gauntlet.sql.server;

import dev.gauntlet.core.host.Executables;
import dev.gauntlet.core.host.HostCommand;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An ext4 file system in a sparse image file, loop-mounted, so that the writes of what lives on it can be frozen
 * ({@code fsfreeze}) without touching the rest of the machine: the disk stall of a run through faults. Needs root and
 * {@code losetup}, {@code mkfs.ext4}, {@code mount} and {@code fsfreeze}; {@link #unavailable()} says why not
 * otherwise. The mount outlives the JVM and is reused by the next run; a freeze left by a killed JVM is thawed when
 * the file system is next mounted here.
 */
public final class LoopFileSystem {

    /** The image's size; sparse, so the disk holds only what is written. */
    static final long IMAGE_BYTES = 32L << 30;
    private static final List<String> TOOLS = List.of("losetup", "mkfs.ext4", "mount", "umount", "fsfreeze");

    private final Path mountPoint;

    private LoopFileSystem(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Why this machine cannot have one, or empty when it can. */
    public static Optional<String> unavailable() {
        if (!ServerAccount.isRoot()) {
            return Optional.of("not root");
        }
        for (String tool : TOOLS) {
            if (find(tool).isEmpty()) {
                return Optional.of(tool + " is not installed");
            }
        }
        if (!Files.exists(Path.of("/dev/loop-control"))) {
            return Optional.of("no loop devices (/dev/loop-control)");
        }
        return Optional.empty();
    }

    /** The file system in {@code image} mounted at {@code mountPoint}, made first if there is no image yet. */
    public static LoopFileSystem mount(Path image, Path mountPoint) throws IOException {
        Files.createDirectories(mountPoint);
        LoopFileSystem fs = new LoopFileSystem(mountPoint.toAbsolutePath().normalize());
        if (fs.mounted()) {
            fs.thawQuietly();
            return fs;
        }
        if (!Files.exists(image)) {
            try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
                f.setLength(IMAGE_BYTES);
            }
            run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=1,lazy_journal_init=1", image.toString());
        }
        run("mount", "-o", "loop", image.toString(), fs.mountPoint.toString());
        Files.setPosixFilePermissions(fs.mountPoint, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return fs;
    }

    public Path mountPoint() {
        return mountPoint;
    }

    /** Blocks every write to the file system (writers wait in the kernel) until {@link #thaw}. */
    public void freeze() throws IOException {
        run("fsfreeze", "-f", mountPoint.toString());
    }

    /** Thaws it; false when it was not frozen (someone thawed it first, e.g. the exit hook). */
    public boolean thaw() throws IOException {
        try {
            run("fsfreeze", "-u", mountPoint.toString());
            return true;
        } catch (IOException e) {
            if (e.getMessage().contains("Invalid argument")) {
                return false; // EINVAL: not frozen
            }
            throw e;
        }
    }

    /** Thaws and unmounts it (the image stays). */
    public void unmount() throws IOException {
        thawQuietly();
        run("umount", mountPoint.toString());
    }

    /** Thaws it if frozen, ignoring failures (for exit hooks). */
    public void thawQuietly() {
        try {
            thaw();
        } catch (IOException ignored) {
            // nothing more can be done here
        }
    }

    private boolean mounted() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
            String[] f = line.split(" ");
            if (f.length > 4 && f[4].replace("\\040", " ").equals(mountPoint.toString())) {
                return true;
            }
        }
        return false;
    }

    /** The tool on the PATH, else where util-linux and e2fsprogs put it (a non-login PATH may lack sbin). */
    private static Optional<Path> find(String tool) {
        return Executables.find(tool, "/usr/sbin", "/sbin", "/usr/bin", "/bin");
    }

    private static void run(String tool, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(find(tool).orElseThrow(() -> new IOException(tool + " is not installed")).toString());
        command.addAll(List.of(args));
        HostCommand.Outcome outcome;
        try {
            outcome = HostCommand.of(command).within(Duration.ofSeconds(120)).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + tool, e);
        }
        if (!outcome.succeeded()) {
            throw new IOException(outcome.failure());
        }
    }
}

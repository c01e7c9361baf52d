package dev.gauntlet.sql.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code postmaster.pid} lock file a server keeps in its data directory (process id on line 1, port on
 * line 4, status such as "ready" on line 8), and the server processes that work in that directory.
 *
 * <p>We judge the lock file ourselves because pg_ctl trusts a bare {@code kill(pid, 0)}: a killed postmaster that
 * init has not reaped yet (a zombie) blocks a new start for seconds, or for ever under an init that never reaps.
 * On Linux every server process has the data directory as its working directory, which tells us exactly
 * whether anything of an old server is still alive.
 */
record PostmasterPid(long pid, int port, String status) {

    static final String FILE_NAME = "postmaster.pid";
    private static final Path PROC = Path.of("/proc");

    /** The lock file of a data directory, if there is one. */
    static Optional<PostmasterPid> read(Path dataDirectory) {
        List<String> lines;
        try {
            lines = Files.readAllLines(dataDirectory.resolve(FILE_NAME), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new LocalPostgresException("could not read " + dataDirectory.resolve(FILE_NAME) + ": " + e, e);
        }
        try {
            long pid = Long.parseLong(lines.get(0).trim());
            int port = lines.size() > 3 ? Integer.parseInt(lines.get(3).trim()) : 0;
            String status = lines.size() > 7 ? lines.get(7).trim() : "";
            return Optional.of(new PostmasterPid(pid, port, status));
        } catch (RuntimeException e) {
            // A file cut short by a crash during startup names no live server.
            return Optional.of(new PostmasterPid(-1, 0, ""));
        }
    }

    /** True when the pid is a live (not zombie) postgres process working in this data directory. */
    boolean isRunning(Path dataDirectory) {
        if (pid <= 0) {
            return false;
        }
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .map(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(true))
                    .orElse(false);
        }
        return isLiveServerProcess(PROC.resolve(Long.toString(pid)), realPath(dataDirectory), true);
    }

    boolean isReady() {
        return "ready".equals(status);
    }

    /**
     * Live postgres processes whose working directory is this data directory: a postmaster, or backends that
     * outlived a killed one and still hold its shared memory. Empty where there is no /proc.
     */
    static List<Long> processesIn(Path dataDirectory) {
        List<Long> pids = new ArrayList<>();
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return pids;
        }
        Path real = realPath(dataDirectory);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path process : entries) {
                if (isLiveServerProcess(process, real, false)) {
                    pids.add(Long.parseLong(process.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new LocalPostgresException("could not list processes in /proc: " + e, e);
        }
        return pids;
    }

    /**
     * This lock file, left by a server that died (killed, or the machine went down), removed once no process of that
     * server is left in {@code dataDirectory} (waiting up to {@code patience}): then it guards nothing, and postgres
     * refuses to start while the dead postmaster lingers as an unreaped zombie. Where /proc is missing, postgres
     * judges alone.
     */
    void removeOnceItsProcessesAreGone(Path dataDirectory, java.time.Duration patience) throws IOException {
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return;
        }
        long deadline = System.nanoTime() + patience.toNanos();
        List<Long> survivors = processesIn(dataDirectory);
        while (!survivors.isEmpty() && System.nanoTime() < deadline) {
            // Backends of a killed postmaster notice its death and exit on their own, usually within a second.
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalPostgresException("interrupted while waiting for an earlier server's processes", e);
            }
            survivors = processesIn(dataDirectory);
        }
        if (!survivors.isEmpty()) {
            throw new LocalPostgresException("processes " + survivors + " of an earlier PostgreSQL server still run"
                    + " in " + dataDirectory + " although its postmaster (pid " + pid() + ") is gone; stop them");
        }
        Files.deleteIfExists(dataDirectory.resolve(FILE_NAME));
    }

    /**
     * Whether {@code process} is a live postgres process working in {@code dataDirectory}.
     *
     * @param assumeIfHidden what to answer when the working directory cannot be read (another user's process
     *     and we are not root): for the lock file's own pid the name is evidence enough.
     */
    private static boolean isLiveServerProcess(Path process, Path dataDirectory, boolean assumeIfHidden) {
        try {
            String stat = Files.readString(process.resolve("stat"), StandardCharsets.UTF_8);
            // "pid (comm) state ...": comm may hold spaces, so the state follows the last ')'.
            int open = stat.indexOf('(');
            int close = stat.lastIndexOf(')');
            if (open < 0 || close < 0 || close + 2 >= stat.length()) {
                return false;
            }
            char state = stat.charAt(close + 2);
            if (state == 'Z' || state == 'X' || !stat.substring(open + 1, close).startsWith("postgres")) {
                return false;
            }
            try {
                return Files.readSymbolicLink(process.resolve("cwd")).equals(dataDirectory);
            } catch (IOException | SecurityException hidden) {
                return assumeIfHidden;
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static Path realPath(Path directory) {
        try {
            return directory.toRealPath();
        } catch (IOException e) {
            return directory.toAbsolutePath().normalize();
        }
    }

    private static boolean isNumber(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }
}

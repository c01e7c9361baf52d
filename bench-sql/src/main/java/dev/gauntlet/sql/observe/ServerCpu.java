package dev.gauntlet.sql.observe;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.run.PhaseProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The CPU time a PostgreSQL server on this machine has used, in nanoseconds, read from {@code /proc}: the
 * postmaster's own time, the time of the children it has reaped ({@code cutime}, {@code cstime}: backends that
 * ended, so short sessions are not lost), and the time of every child still running (backends, checkpointer, WAL
 * writer, autovacuum). Read at every phase boundary, so each phase carries the server's CPU beside the driver's.
 *
 * <p>The postmaster is found from a session: its backend's parent process. That works when the server runs on
 * this machine in the same process namespace (the embedded server, or a local {@code --url}); elsewhere
 * {@link #locate} finds nothing and the figure is simply absent. Resolution is the kernel's clock tick (10 ms).
 */
public final class ServerCpu implements PhaseProbe {

    public static final String NAME = "serverCpuNanos";

    private static final Path PROC = Path.of("/proc");
    /** USER_HZ: 100 on every Linux architecture this runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final long postmaster;

    private ServerCpu(long postmaster) {
        this.postmaster = postmaster;
    }

    /** The server behind {@code settings}, when its processes are visible here. */
    public static Optional<ServerCpu> locate(ConnectionSettings settings) {
        if (!Files.isDirectory(PROC)) {
            return Optional.empty();
        }
        try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            long backend = rs.getLong(1);
            Optional<long[]> stat = stat(backend);
            if (stat.isEmpty()) {
                return Optional.empty();
            }
            long parent = stat.get()[0];
            String name = Files.readString(PROC.resolve(parent + "/comm"), StandardCharsets.UTF_8).strip();
            return name.startsWith("postgres") || name.startsWith("postmaster")
                    ? Optional.of(new ServerCpu(parent)) : Optional.empty();
        } catch (SQLException | IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PerOperation perOperation() {
        return new PerOperation("serverCpuPerOperationMs", 1e6, MetricInfo.lower().serverPerOperation());
    }

    @Override
    public Long read() {
        Optional<long[]> own = stat(postmaster);
        if (own.isEmpty()) {
            return null; // the server is gone (restarted or stopped): no figure rather than a wrong one
        }
        long ticks = own.get()[1] + own.get()[2];
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, p -> isNumber(p.getFileName().toString()))) {
            for (Path p : processes) {
                Optional<long[]> child = stat(Long.parseLong(p.getFileName().toString()));
                if (child.isPresent() && child.get()[0] == postmaster) {
                    ticks += child.get()[1];
                }
            }
        } catch (IOException e) {
            return null;
        }
        return ticks * NANOS_PER_TICK;
    }

    /**
     * {@code [ppid, utime + stime, cutime + cstime]} of a process, from {@code /proc/PID/stat}; empty when it is gone.
     * The command name (field 2) may hold spaces and parentheses, so fields are counted after its last ')'.
     */
    private static Optional<long[]> stat(long pid) {
        String line;
        try {
            line = Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        // f[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
        return Optional.of(new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12]),
                Long.parseLong(f[13]) + Long.parseLong(f[14])});
    }

    private static boolean isNumber(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return false;
            }
        }
        return !name.isEmpty();
    }
}

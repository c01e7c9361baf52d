package dev.gauntlet.core.host;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Optional;

/**
 * The files (sockets among them) this process may still open: its limit ({@code ulimit -n}) less those open now. A
 * run that holds a connection per client needs one per client, so a run of 14,000 clients is judged against the
 * limit before it starts, not when the 1,025th connection fails half-way through opening them.
 */
public final class OpenFiles {

    /** Files a run keeps besides its connections: its outputs, the JVM's jars, the database's own, with room. */
    static final int HEADROOM = 128;

    private OpenFiles() {
    }

    /** The most files this process may open, if the platform says. */
    public static Optional<Long> limit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return Optional.of(unix.getMaxFileDescriptorCount());
        }
        return Optional.empty();
    }

    /** Files open now, if the platform says. */
    public static Optional<Long> open() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return Optional.of(unix.getOpenFileDescriptorCount());
        }
        return Optional.empty();
    }

    /**
     * Why {@code connections} more cannot be opened, in one line, or empty when they can (or the platform does not
     * say).
     *
     * @param what what needs them, e.g. {@code --clients 14000 (one connection each)}
     * @param instead what to do instead besides raising the limit, e.g. {@code or use --pool pooled}
     */
    public static Optional<String> shortOf(long connections, String what, String instead) {
        Optional<Long> limit = limit();
        Optional<Long> open = open();
        if (limit.isEmpty() || open.isEmpty()) {
            return Optional.empty();
        }
        long free = limit.get() - open.get() - HEADROOM;
        if (connections <= free) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%s need %,d connections, one file descriptor each, but this "
                + "process may open %,d files (ulimit -n) and has %,d open: raise the limit (ulimit -n %d)%s", what,
                connections, limit.get(), open.get(), Math.max(connections + open.get() + HEADROOM, 1024),
                instead.isEmpty() ? "" : " " + instead));
    }
}

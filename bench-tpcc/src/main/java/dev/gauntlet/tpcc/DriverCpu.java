package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.RunListener;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * CPU time this JVM (the driver, not the database) used during the measured phase, so a run can say what
 * one transaction costs the client: on a small box every millisecond the driver burns is taken from the
 * database under test.
 */
final class DriverCpu implements RunListener {

    private final com.sun.management.OperatingSystemMXBean os =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    private long atStart = -1;
    private long atEnd = -1;

    /** Takes the starting figure now: call before a run that has no warm-up. */
    void startNow() {
        atStart = cpuNanos();
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
    }

    @Override
    public void onPhaseEnd(Phase phase) {
        if (Phase.WARMUP.equals(phase.name())) {
            atStart = cpuNanos();
        } else {
            atEnd = cpuNanos();
        }
    }

    private long cpuNanos() {
        return os == null ? -1 : os.getProcessCpuTime();
    }

    /** User + system CPU seconds of the measured phase, or null when the platform does not report it. */
    Double seconds() {
        return atStart < 0 || atEnd < 0 ? null : (atEnd - atStart) / 1e9;
    }
}

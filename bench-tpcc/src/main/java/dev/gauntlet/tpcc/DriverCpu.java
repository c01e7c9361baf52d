package dev.gauntlet.tpcc;

import java.lang.management.ManagementFactory;

/**
 * CPU time this JVM (the driver, not the database) used during the measured phase, so a run can say what
 * one transaction costs the client: on a small box every millisecond the driver burns is taken from the
 * database under test.
 */
final class DriverCpu extends PhaseDelta {

    private final com.sun.management.OperatingSystemMXBean os =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);

    /** Process CPU nanoseconds (user + system), or null when the platform does not report them. */
    @Override
    Long read() {
        long nanos = os == null ? -1 : os.getProcessCpuTime();
        return nanos < 0 ? null : nanos;
    }

    /** CPU seconds of the measured phase, or null. */
    Double seconds() {
        Long d = delta();
        return d == null ? null : d / 1e9;
    }
}

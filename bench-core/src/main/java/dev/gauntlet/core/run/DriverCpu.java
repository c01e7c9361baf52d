package dev.gauntlet.core.run;

import dev.gauntlet.core.result.MetricInfo;
import java.lang.management.ManagementFactory;

/**
 * CPU time this JVM (the driver, not the database) has used, in nanoseconds: a probe every run has, so every result
 * says what one operation costs the client (on a small box every millisecond the driver burns is taken from the
 * database under test).
 */
public final class DriverCpu implements PhaseProbe {

    /** The probe's name in each phase's {@code probes}. */
    public static final String NAME = "driverCpuNanos";

    private final com.sun.management.OperatingSystemMXBean os =
            ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PerOperation perOperation() {
        return new PerOperation("driverCpuPerOperationMs", 1e6, MetricInfo.lower().perOperation());
    }

    /** Process CPU nanoseconds (user + system), or null when the platform does not report them. */
    @Override
    public Long read() {
        long nanos = os == null ? -1 : os.getProcessCpuTime();
        return nanos < 0 ? null : nanos;
    }
}

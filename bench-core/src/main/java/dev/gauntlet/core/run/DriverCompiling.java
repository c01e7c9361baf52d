package dev.gauntlet.core.run;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Time this JVM's just-in-time compilers have spent compiling, in milliseconds (the JVM's own account, summed over
 * its compiler threads): a probe every run has beside {@link DriverCpu}, so each phase says how much of the driver's
 * CPU went to compiling its code rather than to the workload. A priming that did its job leaves little for the
 * measured phases ({@link CompilerSettled}).
 */
public final class DriverCompiling implements PhaseProbe {

    /** The probe's name in each phase's {@code probes}. */
    public static final String NAME = "driverCompilingMillis";

    private final CompilationMXBean compilers = ManagementFactory.getCompilationMXBean();

    @Override
    public String name() {
        return NAME;
    }

    /** The compilers' total milliseconds, or null when the JVM keeps none. */
    @Override
    public Long read() {
        return compilers == null || !compilers.isCompilationTimeMonitoringSupported() ? null
                : compilers.getTotalCompilationTime();
    }
}

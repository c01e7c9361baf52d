package dev.gauntlet.core.run;

import dev.gauntlet.core.result.MetricInfo;

/**
 * A cumulative figure the runner reads at the start of the run and at every phase boundary, so each phase in the
 * result carries how much it rose: CPU the driver used, New-Orders the server counted ({@code sum(d_next_o_id)}),
 * WAL bytes written. One mechanism for everything a workload measures per phase; the runner calls it from its
 * reporter thread, never from a worker.
 */
public interface PhaseProbe extends Probe {

    /** The name the figure has in each phase's {@code probes}. */
    @Override
    String name();

    /** The figure now, cumulative; null when it cannot be read (the phase then has no value for it). */
    Long read();

    /**
     * The metric a result derives from this probe: its rise over the measured phase per completed operation, or null
     * for none. The probe says what it adds, so the engine names no probe.
     */
    default PerOperation perOperation() {
        return null;
    }

    /**
     * A per-operation metric: the probe's rise divided by {@code unit} and by the operations completed, named
     * {@code metric}, e.g. CPU nanoseconds as {@code serverCpuPerOperationMs} with a unit of 1e6.
     */
    record PerOperation(String metric, double unit, MetricInfo info) {
    }
}

package dev.gauntlet.core.run;

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
}

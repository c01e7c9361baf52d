package dev.gauntlet.core.run;

/**
 * Something the runner reads besides the clients' operations: a {@link PhaseProbe} (a cumulative figure read at each
 * phase boundary) or a {@link GaugeProbe} (figures sampled every interval, drawn over time). A run takes a list of
 * either kind.
 */
public interface Probe {

    /** The name it has in results (a phase probe's figure) or in notes (a gauge probe whose reads fail). */
    String name();

    /**
     * Releases what reading holds (a connection, a sampling thread); called once, by the runner when its run ends,
     * or by whoever made the probe when it outlives the run ({@link Runner#leavingProbesOpen}).
     */
    default void close() {
    }
}

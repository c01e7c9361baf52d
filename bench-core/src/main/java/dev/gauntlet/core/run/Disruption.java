package dev.gauntlet.core.run;

/**
 * Something that happens to the system under test at a planned time while the workload runs: a fault switched on
 * and off (a network partition, a frozen disk), or an event that runs to completion (an index build, a restart).
 * The runner calls {@link #start} at the planned time and, for a disruption with a length, {@link #stop} when it
 * is over, and again at the end of the run (even after Ctrl-C) for one still on, so nothing stays disrupted; then,
 * at the end of the run, {@link #undo} once for every disruption that started, whatever became of it. What
 * happened (actual times, outcome, notes) goes into the result. A disruption that fails is recorded; the run goes
 * on.
 *
 * <p>Implementations come with the adversity mode; each is called from its own scheduler thread.
 */
public interface Disruption {

    /** Its name in results and reports, e.g. {@code restart-fast} or {@code freeze-disk}. */
    String name();

    /** Switches the fault on, or runs the event to completion; {@code log} keeps notes for the result. */
    void start(Log log) throws Exception;

    /** Undoes it; must be safe to call when {@link #start} failed half-way. Does nothing by default. */
    default void stop(Log log) throws Exception {
    }

    /**
     * Cleans up at the end of the run (after {@link #stop}, even when {@link #start} or {@link #stop} failed or the
     * run was interrupted): called once for every disruption that started. A failure marks the disruption failed.
     * Does nothing by default.
     */
    default void undo(Log log) throws Exception {
    }

    /**
     * Notes a disruption keeps for the result, e.g. "standby promoted in 2.3 s", and figures it measured, by name
     * (e.g. {@code availabilityGapSeconds}); a figure given twice keeps the last.
     */
    @FunctionalInterface
    interface Log {
        void note(String message);

        /** A figure for the result's record of this disruption; ignored by a log that keeps notes only. */
        default void figure(String name, double value) {
        }
    }
}

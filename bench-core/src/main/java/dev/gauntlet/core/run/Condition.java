package dev.gauntlet.core.run;

import dev.gauntlet.core.result.Interval;

/**
 * What ends a phase before its length when it holds: "the backlog reads 0", "throughput is back". The runner asks
 * every {@link #POLL_MILLIS} ms while the phase runs, always from the same thread, and says how long the phase has
 * run by its own clock, so a condition may keep state (when each part of it first held) without a clock of its own.
 * A condition that throws does not hold; the phase's length still bounds it.
 */
@FunctionalInterface
public interface Condition {

    /** How often the runner asks. */
    long POLL_MILLIS = 50;

    /** Whether it holds now, {@code inPhase} after its phase began. */
    boolean holds(java.time.Duration inPhase) throws Exception;

    /**
     * Hears each interval as it closes, from the run's start (the phases before its own too: a baseline), on the
     * thread that asks {@link #holds}; a condition on the run's figures ("throughput is back") keeps what it needs.
     * Does nothing by default.
     */
    default void observe(Interval closed) {
    }

    /**
     * The run it serves begins: a condition that keeps state forgets the last run's (one plan, and so one condition,
     * serves every run of an experiment). Does nothing by default.
     */
    default void runStarts() {
    }

    /**
     * The run begins, with its schedule to watch: how far behind it is at any moment ({@link ScheduleCaughtUp}).
     * By default, {@link #runStarts()}.
     */
    default void runStarts(ScheduleLag schedule) {
        runStarts();
    }

    /**
     * Holds when every one of {@code parts} holds: each is asked at every poll (none is skipped, so a part that counts
     * how long it has held keeps counting), and each hears the intervals and the run's start.
     */
    static Condition allOf(Condition... parts) {
        Condition[] all = parts.clone();
        return new Condition() {
            @Override
            public boolean holds(java.time.Duration inPhase) throws Exception {
                boolean every = true;
                for (Condition c : all) {
                    boolean held;
                    try {
                        held = c.holds(inPhase);
                    } catch (Exception e) {
                        held = false; // as the runner takes a condition that throws
                    }
                    every &= held;
                }
                return every;
            }

            @Override
            public void observe(Interval closed) {
                for (Condition c : all) {
                    c.observe(closed);
                }
            }

            @Override
            public void runStarts(ScheduleLag schedule) {
                for (Condition c : all) {
                    c.runStarts(schedule);
                }
            }
        };
    }
}

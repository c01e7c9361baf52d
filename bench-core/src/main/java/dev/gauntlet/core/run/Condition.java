package dev.gauntlet.core.run;

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
}

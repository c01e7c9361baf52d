package dev.gauntlet.core.run;

/**
 * How far an open-loop run is behind its schedule now: the age of the oldest operation that is due and that no client
 * has taken up yet (every client busy), across the run's open-loop roles; 0 when every due operation has been taken
 * up, and for closed-loop runs. An operation a client took up but started late (its thread woken late) is not in it.
 * What a {@link Condition} watches to know the schedule has caught up ({@link ScheduleCaughtUp}).
 */
@FunctionalInterface
public interface ScheduleLag {

    /** No schedule: never behind. */
    ScheduleLag NONE = () -> 0;

    /** Nanoseconds behind, now. */
    long nanos();
}

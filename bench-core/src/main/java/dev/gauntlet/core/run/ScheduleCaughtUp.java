package dev.gauntlet.core.run;

import java.time.Duration;
import java.util.Locale;

/**
 * An open-loop run's schedule has caught up: for {@link #HOLD} no due operation has waited more than {@link #LATE}
 * for a client to take it up ({@link ScheduleLag}). What a priming waits for before the measured phase of a search's step, so the backlog a
 * rate near saturation builds while the driver warms up is not carried into the measured phase: a step whose priming
 * ends at its limit with the schedule still behind {@linkplain #caughtUp() says so}, and is a step the system did not
 * sustain rather than one mismeasured. A closed-loop run is never behind.
 *
 * <p>Asked by the run from one thread; {@link #caughtUp()} and {@link #lastLag()} may be read after the run.
 */
public final class ScheduleCaughtUp implements Condition {

    /** The most a due operation may wait for a client and the schedule still count as kept. */
    public static final Duration LATE = Duration.ofMillis(20);
    /** How long the schedule must be kept before it counts as caught up. */
    public static final Duration HOLD = Duration.ofSeconds(1);

    private ScheduleLag schedule = ScheduleLag.NONE;
    /** Since when (time in the phase, nanoseconds) the schedule has been kept; -1: it is behind. */
    private long keptSince = -1;
    private volatile long lastLagNanos;
    private volatile boolean asked;

    @Override
    public void runStarts(ScheduleLag lag) {
        schedule = lag;
        keptSince = -1;
        lastLagNanos = 0;
        asked = false;
    }

    @Override
    public boolean holds(Duration inPhase) {
        long lag = Math.max(0, schedule.nanos());
        lastLagNanos = lag;
        asked = true;
        if (lag > LATE.toNanos()) {
            keptSince = -1;
            return false;
        }
        if (keptSince < 0) {
            keptSince = inPhase.toNanos();
        }
        return inPhase.toNanos() - keptSince >= HOLD.toNanos();
    }

    /** Whether the schedule was kept (within {@link #LATE}) when last asked: at the end of the phase it ended. */
    public boolean caughtUp() {
        return !asked || lastLagNanos <= LATE.toNanos();
    }

    /** How far behind the schedule was when last asked. */
    public Duration lastLag() {
        return Duration.ofNanos(lastLagNanos);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "the schedule has caught up (no due operation over %d ms late for %d s)",
                LATE.toMillis(), HOLD.toSeconds());
    }
}

package dev.gauntlet.core.run;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Open-loop pacing: hands out intended start times ("slots") spaced 1/rate apart from a fixed origin, across all
 * clients. A slot taken late keeps its time, so latency measured from it includes the wait (coordinated
 * omission corrected at the source). Slots that fall due before the run ends but are never taken (every client
 * was busy) are not lost: {@link #taken} and {@link #dueBefore} tell the runner how many, and
 * {@link #intendedStart} when each was due.
 *
 * <p>Thread safety: {@link #next} may be called concurrently.
 */
public final class RateSchedule {

    private final long originNanos;
    private final double intervalNanos;
    private final AtomicLong slots = new AtomicLong();

    public RateSchedule(long originNanos, double opsPerSecond) {
        this.originNanos = originNanos;
        this.intervalNanos = 1e9 / opsPerSecond;
    }

    /** The intended start of the next operation, in {@link System#nanoTime()} terms. */
    public long next() {
        return intendedStart(slots.getAndIncrement());
    }

    /** When slot {@code k} (0-based) is due. */
    public long intendedStart(long k) {
        return originNanos + (long) (k * intervalNanos);
    }

    /** How many slots clients have taken so far. */
    public long taken() {
        return slots.get();
    }

    /** How many slots are due strictly before {@code nanos}. */
    public long dueBefore(long nanos) {
        if (nanos <= originNanos) {
            return 0;
        }
        long k = (long) Math.ceil((nanos - originNanos) / intervalNanos);
        // Guard the rounding of a double: slot k must be the first at or after nanos.
        while (k > 0 && intendedStart(k - 1) >= nanos) {
            k--;
        }
        while (intendedStart(k) < nanos) {
            k++;
        }
        return k;
    }
}

package dev.gauntlet.core.run;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Open-loop pacing: hands out intended start times spaced 1/rate apart from a fixed origin, across all
 * clients. A slot taken late keeps its time, so latency measured from it includes the wait (coordinated
 * omission corrected at the source).
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
        return originNanos + (long) (slots.getAndIncrement() * intervalNanos);
    }
}

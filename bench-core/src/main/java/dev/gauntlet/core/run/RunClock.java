package dev.gauntlet.core.run;

import java.time.Instant;

/**
 * The process's one clock for times stored in data: epoch nanoseconds that advance with {@link System#nanoTime()}
 * (monotonic: never stepped by NTP), anchored to the wall clock once, when the class loads. A producer writes
 * {@link Attempt#intendedEpochNanos()} into its message; a consumer in the same process hands that timestamp to
 * {@link Attempt#latencySince}, and the runner subtracts it from its own reading at commit: both ends read this one
 * clock, so the end-to-end latency is exact to the nanosecond (histograms keep 3 significant digits).
 *
 * <p>Across processes (a producer on one host, a consumer on another) the difference also carries the offset
 * between the hosts' wall clocks at the moments they loaded this class: keep both ends in one driver, or sync the
 * hosts' clocks and allow for their error.
 */
public final class RunClock {

    private static final long ANCHOR_NANO_TIME;
    private static final long ANCHOR_EPOCH_NANOS;

    static {
        Instant now = Instant.now();
        ANCHOR_NANO_TIME = System.nanoTime();
        ANCHOR_EPOCH_NANOS = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private RunClock() {
    }

    /** A {@link System#nanoTime()} reading as epoch nanoseconds. */
    public static long epochNanos(long nanoTime) {
        return ANCHOR_EPOCH_NANOS + (nanoTime - ANCHOR_NANO_TIME);
    }

    /** Epoch nanoseconds as a {@link System#nanoTime()} reading (the inverse of {@link #epochNanos}). */
    public static long nanoTime(long epochNanos) {
        return ANCHOR_NANO_TIME + (epochNanos - ANCHOR_EPOCH_NANOS);
    }
}

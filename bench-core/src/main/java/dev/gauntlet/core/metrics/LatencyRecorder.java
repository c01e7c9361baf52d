package dev.gauntlet.core.metrics;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A nanosecond latency distribution that many threads record into while one reporter thread takes
 * interval snapshots.
 *
 * <p>Thread safety: {@link #record} is wait-free and may be called from any thread;
 * {@link #takeInterval} must be called from one thread at a time (the reporter).
 */
public final class LatencyRecorder {

    /** Values above this are clamped and counted in {@link #clamped()}: one hour covers every sane latency. */
    public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);
    public static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    private final java.util.concurrent.atomic.LongAdder clamped = new java.util.concurrent.atomic.LongAdder();
    private Histogram recycled;

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    public void record(long nanos) {
        if (nanos > HIGHEST_TRACKABLE_NANOS) {
            clamped.increment();
            nanos = HIGHEST_TRACKABLE_NANOS;
        } else if (nanos < 1) {
            nanos = 1;
        }
        recorder.recordValue(nanos);
    }

    /**
     * Everything recorded since the previous call. The returned histogram is valid until the next call;
     * callers copy what they keep.
     */
    public Histogram takeInterval() {
        recycled = recorder.getIntervalHistogram(recycled);
        return recycled;
    }

    public long clamped() {
        return clamped.sum();
    }
}

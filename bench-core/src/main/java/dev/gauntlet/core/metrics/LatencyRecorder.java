package dev.gauntlet.core.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * A nanosecond latency distribution that many threads record into while one reporter thread takes
 * interval snapshots.
 *
 * <p>Recording is striped: threads on different cores sharing one stripe pay for its counters' cache line moving
 * between them on every value (measured: ~117 ns a value with two threads, against ~20 ns striped; see
 * {@code RecordingCostBenchmark}). A runner worker records into a stripe of its own when there are few enough
 * workers to give each one ({@link #LatencyRecorder(int)}), which lets it use the cheaper single-writer protocol
 * ({@link IntervalStripe#recordExclusive}); otherwise threads share stripes in turn. The reporter adds the stripes'
 * interval histograms together, which is exact.
 *
 * <p>Thread safety: {@link #record(long)} may be called from any thread; {@link #record(long, int)} with a writer
 * slot below the number of own stripes only from that slot's one thread; {@link #takeInterval} from one thread at
 * a time (the reporter).
 */
public final class LatencyRecorder {

    /** Values above this are clamped and counted in {@link #clamped()}: one hour covers every sane latency. */
    public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);
    public static final int SIGNIFICANT_DIGITS = 3;

    /** Shared stripes; also the most writers that get a stripe of their own. */
    public static final int STRIPES = Math.max(4, Integer.highestOneBit(Runtime.getRuntime().availableProcessors() * 2 - 1) << 1);
    private static final AtomicInteger NEXT_STRIPE = new AtomicInteger();
    private static final ThreadLocal<Integer> STRIPE =
            ThreadLocal.withInitial(() -> NEXT_STRIPE.getAndIncrement() & (STRIPES - 1));

    private final IntervalStripe[] shared = new IntervalStripe[STRIPES];
    private final IntervalStripe[] own;
    private final Histogram interval = newHistogram();
    private final LongAdder clamped = new LongAdder();

    /** A recorder whose writers all share stripes. */
    public LatencyRecorder() {
        this(0);
    }

    /**
     * @param ownWriters writer slots 0..ownWriters-1 that each get a stripe of their own (at most {@link #STRIPES};
     *                   more is treated as none, since that many writers would cost too much memory)
     */
    public LatencyRecorder(int ownWriters) {
        for (int i = 0; i < STRIPES; i++) {
            shared[i] = IntervalStripe.shared(SIGNIFICANT_DIGITS);
        }
        own = new IntervalStripe[ownWriters <= STRIPES ? ownWriters : 0];
        for (int i = 0; i < own.length; i++) {
            own[i] = IntervalStripe.exclusive(SIGNIFICANT_DIGITS);
        }
    }

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /** Records from any thread, into a shared stripe. */
    public void record(long nanos) {
        shared[STRIPE.get()].recordShared(clamp(nanos));
    }

    /**
     * Records from writer slot {@code writer} (a runner worker's index): into its own stripe when it has one, else
     * into a shared stripe.
     */
    public void record(long nanos, int writer) {
        if (writer < own.length) {
            own[writer].recordExclusive(clamp(nanos));
        } else {
            shared[writer & (STRIPES - 1)].recordShared(clamp(nanos));
        }
    }

    private long clamp(long nanos) {
        if (nanos > HIGHEST_TRACKABLE_NANOS) {
            clamped.increment();
            return HIGHEST_TRACKABLE_NANOS;
        }
        return Math.max(1, nanos);
    }

    /**
     * Everything recorded since the previous call. The returned histogram is reused by the next call;
     * callers copy what they keep.
     */
    public Histogram takeInterval() {
        if (interval.getTotalCount() != 0) {
            interval.reset();
        }
        for (IntervalStripe s : shared) {
            s.takeInterval(interval);
        }
        for (IntervalStripe s : own) {
            s.takeInterval(interval);
        }
        return interval;
    }

    /**
     * A copy of {@code h} to keep: an empty one is a histogram that grows as values come (a few hundred bytes), not
     * another copy of the whole hour's range.
     */
    public static Histogram keep(Histogram h) {
        return h.getTotalCount() == 0 ? new Histogram(SIGNIFICANT_DIGITS) : h.copy();
    }

    public long clamped() {
        return clamped.sum();
    }
}

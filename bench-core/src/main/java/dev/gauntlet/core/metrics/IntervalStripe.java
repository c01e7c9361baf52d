package dev.gauntlet.core.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * One stripe of a {@link LatencyRecorder}: a pair of histograms that writers record into while one reader takes
 * interval snapshots, with the writer-reader phaser protocol of HdrHistogram's {@code WriterReaderPhaser} (a writer
 * announces itself on entry and exit; the reader swaps the active histogram, then waits until every writer that
 * entered before the swap has left).
 *
 * <p>Two kinds of stripe. A shared one ({@link #shared}) takes any number of concurrent writers
 * ({@link #recordShared}): its histograms are {@code ConcurrentHistogram}s and each value costs two atomic
 * read-modify-writes around the increment, as HdrHistogram's {@code Recorder}. An exclusive one ({@link #exclusive})
 * has exactly one writer thread (a runner worker that owns it, {@link #recordExclusive}): plain histograms, and an
 * exit that is a release store rather than an atomic increment, which on the runner's hot path is about half the
 * recording cost.
 *
 * <p>Thread safety: writers as above; {@link #takeInterval} from one reader thread at a time.
 */
final class IntervalStripe {

    private static final VarHandle START;
    private static final VarHandle EVEN_END;
    private static final VarHandle ODD_END;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            START = l.findVarHandle(IntervalStripe.class, "startEpoch", long.class);
            EVEN_END = l.findVarHandle(IntervalStripe.class, "evenEndEpoch", long.class);
            ODD_END = l.findVarHandle(IntervalStripe.class, "oddEndEpoch", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Writers entered; its sign is the phase (non-negative: even, negative: odd). */
    @SuppressWarnings("unused")
    private volatile long startEpoch = 0;
    @SuppressWarnings("unused")
    private volatile long evenEndEpoch = 0;
    @SuppressWarnings("unused")
    private volatile long oddEndEpoch = Long.MIN_VALUE;
    private volatile Histogram active;
    private Histogram inactive;

    private IntervalStripe(Histogram active, Histogram inactive) {
        this.active = active;
        this.inactive = inactive;
    }

    /** A stripe for any number of concurrent writers. Auto-resizing: it costs memory only for the range it has seen. */
    static IntervalStripe shared(int significantDigits) {
        return new IntervalStripe(new ConcurrentHistogram(significantDigits), new ConcurrentHistogram(significantDigits));
    }

    /** A stripe for exactly one writer thread. */
    static IntervalStripe exclusive(int significantDigits) {
        return new IntervalStripe(new Histogram(significantDigits), new Histogram(significantDigits));
    }

    void recordShared(long value) {
        long entered = (long) START.getAndAdd(this, 1L);
        try {
            active.recordValue(value);
        } finally {
            (entered < 0 ? ODD_END : EVEN_END).getAndAdd(this, 1L);
        }
    }

    void recordExclusive(long value) {
        // The entry must be a full fence (the reader's swap and this writer's read of 'active' must not cross it);
        // the exit only publishes this writer's own count, so a release store of entered + 1 is enough.
        long entered = (long) START.getAndAdd(this, 1L);
        try {
            active.recordValue(value);
        } finally {
            (entered < 0 ? ODD_END : EVEN_END).setRelease(this, entered + 1);
        }
    }

    /**
     * Adds everything recorded since the previous call to {@code into}, and resets it. Values recorded while this
     * runs land in this interval or the next, never in both and never lost.
     */
    void takeInterval(Histogram into) {
        // An empty histogram is not cleared or added: most stripes of most recorders (pool waits, failures, stripes
        // no thread writes) see nothing in an interval, and each clear and add walks some 270 KB of counts.
        if (inactive.getTotalCount() != 0) {
            inactive.reset();
        }
        Histogram recorded = active;
        active = inactive;
        inactive = recorded;
        flipPhase();
        if (recorded.getTotalCount() != 0) {
            into.add(recorded);
        }
    }

    /** Waits until every writer that entered before the swap has left (WriterReaderPhaser.flipPhase). */
    private void flipPhase() {
        boolean nextPhaseIsEven = (long) START.getVolatile(this) < 0;
        long initial = nextPhaseIsEven ? 0 : Long.MIN_VALUE;
        (nextPhaseIsEven ? EVEN_END : ODD_END).setVolatile(this, initial);
        long startAtFlip = (long) START.getAndSet(this, initial);
        VarHandle previousEnd = nextPhaseIsEven ? ODD_END : EVEN_END;
        while ((long) previousEnd.getVolatile(this) != startAtFlip) {
            Thread.onSpinWait();
        }
    }
}

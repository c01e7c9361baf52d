package dev.gauntlet.core.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The intervals a result keeps inline, in {@code result.json}, however long the run: every reporting interval of a
 * run planned to have at most {@value #MOST}; for a longer one, consecutive intervals of one phase merged exactly
 * (see {@link Interval}) into buckets of the least width of {@link #WIDTHS} reporting periods that keeps the planned
 * run within {@value #MOST} of them, aligned to the run's start and cut at every phase boundary: a 12-hour run
 * reported every second keeps one interval per six minutes (an hour's, one per 30 s), and its result.json stays
 * about 1-2 MB. A run without a planned end (so many operations per client) starts with every interval and doubles
 * the width, merging neighbours, whenever it has kept twice {@value #MOST}. Every interval at full resolution goes to
 * the run's {@link TimelineFile} instead.
 *
 * <p>Memory: the buckets kept, each two to four times the size of one interval (a merged histogram has the values
 * of all its parts, but their range is the same), and the open bucket's sums (a histogram per operation and
 * observation).
 *
 * <p>Thread safety: one thread (the run's reporter) adds and reads.
 */
public final class InlineIntervals {

    /** Intervals a planned run keeps inline at most (a few more where phases cut buckets short). */
    public static final int MOST = 120;
    /** Bucket widths, in reporting periods. */
    static final int[] WIDTHS = {1, 2, 3, 5, 10, 15, 30, 60, 120, 180, 300, 360, 600, 900, 1800, 3600};

    private final double periodSeconds;
    private final Function<String, GaugeInfo.Kind> kinds;
    private final List<Kept> kept = new ArrayList<>();
    /** The bucket width in reporting periods. */
    private long width;
    private Bucket open;

    /** A bucket closed, and whether a phase ended with it (buckets never merge across a phase boundary). */
    private record Kept(Interval interval, boolean endsPhase) {
    }

    /**
     * @param periodSeconds  the reporting period
     * @param plannedSeconds how long the run is planned to last, its phases' lengths summed; 0 or less: unknown
     * @param kinds          each gauge's kind: a rate's counts add up in a bucket, a level keeps its last value
     */
    public InlineIntervals(double periodSeconds, double plannedSeconds, Function<String, GaugeInfo.Kind> kinds) {
        this.periodSeconds = periodSeconds;
        this.kinds = kinds;
        this.width = widthFor(plannedSeconds / periodSeconds);
    }

    /** The least width of {@link #WIDTHS} that keeps {@code intervals} within {@value #MOST} buckets. */
    static long widthFor(double intervals) {
        if (!(intervals > 0) || Double.isInfinite(intervals)) {
            return 1;
        }
        for (int w : WIDTHS) {
            if (Math.ceil(intervals / w - 1e-9) <= MOST) {
                return w;
            }
        }
        return (long) Math.ceil(intervals / MOST);
    }

    /** The width of the buckets, in seconds. */
    public double bucketSeconds() {
        return width * periodSeconds;
    }

    /** The next interval of the run, in the order they close. */
    public void add(Interval interval) {
        long index = index(interval);
        if (open != null && (open.index != index || !java.util.Objects.equals(open.phase, interval.phase()))) {
            close(false);
        }
        if (open == null) {
            open = new Bucket(index, interval.phase());
        }
        open.add(interval);
    }

    /** The current phase ended with the last interval added: the next one starts a bucket of its own. */
    public void endPhase() {
        if (open != null) {
            close(true);
        } else if (!kept.isEmpty()) {
            Kept last = kept.remove(kept.size() - 1);
            kept.add(new Kept(last.interval(), true));
        }
    }

    /** The intervals kept so far, the open bucket's included, in order. */
    public List<Interval> intervals() {
        List<Interval> list = new ArrayList<>(kept.size() + 1);
        kept.forEach(k -> list.add(k.interval()));
        if (open != null) {
            list.add(open.interval());
        }
        return list;
    }

    /** The bucket an interval falls in: where its middle lies, in buckets from the run's start. */
    private long index(Interval interval) {
        double middle = interval.t() - interval.seconds() / 2;
        return (long) Math.floor(middle / bucketSeconds());
    }

    private void close(boolean endsPhase) {
        kept.add(new Kept(open.interval(), endsPhase));
        open = null;
        if (kept.size() > 2 * MOST) {
            widen();
        }
    }

    /** Doubles the width: neighbouring buckets of one phase that now fall in one are merged. */
    private void widen() {
        width *= 2;
        List<Kept> before = new ArrayList<>(kept);
        kept.clear();
        Bucket merging = null;
        for (Kept k : before) {
            long index = index(k.interval());
            if (merging != null && (merging.index != index || !java.util.Objects.equals(merging.phase,
                    k.interval().phase()))) {
                kept.add(new Kept(merging.interval(), false));
                merging = null;
            }
            if (merging == null) {
                merging = new Bucket(index, k.interval().phase());
            }
            merging.add(k.interval());
            if (k.endsPhase()) {
                kept.add(new Kept(merging.interval(), true));
                merging = null;
            }
        }
        if (merging != null) {
            kept.add(new Kept(merging.interval(), false));
        }
    }

    /**
     * Intervals added up into one as they come, whatever their times: a phase's or a run's totals (a recovered run's,
     * {@link RecoveredRun}), exactly as a bucket adds its own.
     */
    public static final class Sum {

        private final Bucket bucket;

        public Sum(String phase, Function<String, GaugeInfo.Kind> kinds) {
            this.bucket = new InlineIntervals(1, 0, kinds).new Bucket(0, phase);
        }

        public void add(Interval interval) {
            bucket.add(interval);
        }

        /** The sum of the intervals added; null when none was. */
        public Interval total() {
            return bucket.merged == 0 ? null : bucket.interval();
        }
    }

    /** Consecutive intervals of one phase, added up as they come; one alone is kept as it is. */
    private final class Bucket {
        final long index;
        final String phase;
        Interval only;
        double t;
        double seconds;
        int merged;
        double unavailable;
        long errors;
        long retries;
        final Map<String, OperationSum> operations = new LinkedHashMap<>();
        final Map<String, Histogram> observations = new TreeMap<>();
        final Map<String, Long> gauges = new TreeMap<>();
        final Map<String, Long> failures = new TreeMap<>();

        Bucket(long index, String phase) {
            this.index = index;
            this.phase = phase;
        }

        void add(Interval interval) {
            if (merged == 0) {
                only = interval;
                merged = interval.reportingIntervals();
                return;
            }
            if (only != null) {
                Interval first = only;
                only = null;
                merged = 0;
                sum(first);
            }
            sum(interval);
        }

        private void sum(Interval interval) {
            t = interval.t();
            seconds += interval.seconds();
            merged += interval.reportingIntervals();
            unavailable += interval.unavailableSeconds();
            errors += interval.errors();
            retries += interval.retries();
            interval.operations().forEach((name, op) ->
                    operations.computeIfAbsent(name, n -> new OperationSum()).add(op));
            interval.observations().forEach((name, timing) -> {
                if (timing.histogram() != null) {
                    observations.computeIfAbsent(name, n -> new Histogram(3))
                            .add(HistogramCodec.decode(timing.histogram()));
                }
            });
            interval.gauges().forEach((name, value) -> {
                if (kinds.apply(name) == GaugeInfo.Kind.RATE) {
                    gauges.merge(name, value, Long::sum);
                } else {
                    gauges.put(name, value);
                }
            });
            interval.failures().forEach((name, n) -> failures.merge(name, n, Long::sum));
        }

        Interval interval() {
            if (only != null) {
                return only;
            }
            Map<String, IntervalOperation> ops = new LinkedHashMap<>();
            operations.forEach((name, sum) -> ops.put(name, sum.over(seconds)));
            Map<String, Timing> observed = new TreeMap<>();
            observations.forEach((name, h) -> {
                Timing timing = Timing.of(h);
                if (timing != null) {
                    observed.put(name, timing);
                }
            });
            return new Interval(t, seconds, phase, ops, errors, retries, observed, gauges, failures, merged,
                    unavailable);
        }
    }

    /** One operation over a bucket's intervals. */
    private static final class OperationSum {
        Histogram latency = new Histogram(3);
        long count;
        long errors;
        long retries;
        double p50;
        double p95;
        double p99;
        double max;
        final Map<String, Long> counters = new TreeMap<>();

        void add(IntervalOperation op) {
            count += op.count();
            errors += op.errors();
            retries += op.retries();
            op.counters().forEach((k, v) -> counters.merge(k, v, Long::sum));
            if (latency != null && op.histogram() != null) {
                latency.add(HistogramCodec.decode(op.histogram()));
            } else {
                latency = null; // a part without a histogram: the worst of the parts' figures, as a merge keeps them
            }
            p50 = Math.max(p50, op.p50());
            p95 = Math.max(p95, op.p95());
            p99 = Math.max(p99, op.p99());
            max = Math.max(max, op.max());
        }

        IntervalOperation over(double seconds) {
            if (latency != null) {
                IntervalOperation of = IntervalOperation.of(latency, seconds, errors, retries, counters);
                return of.count() == count ? of : new IntervalOperation(count, seconds > 0 ? count / seconds : 0,
                        of.p50(), of.p95(), of.p99(), of.max(), errors, retries, of.histogram(), counters, of.p90());
            }
            return new IntervalOperation(count, seconds > 0 ? count / seconds : 0, p50, p95, p99, max, errors, retries,
                    null, counters);
        }
    }
}

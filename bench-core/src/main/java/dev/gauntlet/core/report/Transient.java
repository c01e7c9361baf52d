package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * A start-up transient: the first measured intervals of an operation (or an observed latency, e.g. end to end) unlike
 * the rest of the run, found by the MSER truncation rule of simulation output analysis (White 1997; Franklin and
 * White 2008) over the intervals' mean latencies, with batches of five intervals (MSER-5) when the run has 50 or
 * more measured intervals and of one otherwise. The rule picks the truncation {@code d} (at most half the batches)
 * that minimises the squared error of the remaining batches' mean over {@code (n - d)^2}; a transient is reported
 * only when {@code d} is less than half the batches (a cut reaching half says the run never settled, not that it
 * started slowly) and the cut batches' mean lies more than three standard deviations of the remaining batch means,
 * and more than 10%, from theirs, so noise at the start of a steady run is not called a transient; and only when
 * leaving it out moves the whole run's mean or p99 latency by 10% or more, so what is named changes what a reader
 * takes away. At least {@value #FEWEST_INTERVALS} measured intervals are needed. It reads the result's intervals: a
 * long run's are downsampled (see {@link dev.gauntlet.core.result.InlineIntervals}), so its transient is found at
 * their width, which is all a transient that could move a long run's figures by 10% needs.
 *
 * <p>Reports and summaries show the figures without it <em>beside</em> the whole run's, never instead of them: the
 * whole run is what was measured, the rest is what the run settles to.
 *
 * @param timing    the operation or observation
 * @param intervals how many of the first measured intervals are the transient
 * @param of        how many measured intervals the timing has
 * @param seconds   the transient's length
 * @param batch     intervals per batch (5: MSER-5; 1: MSER over the interval means)
 * @param whole     the timing's latency over every measured interval
 * @param steady    its latency over the intervals after the transient
 */
public record Transient(String timing, int intervals, int of, double seconds, int batch, LatencySummary whole,
                        LatencySummary steady) {

    /** Fewer measured intervals than this say nothing about a transient (too few to tell a start from noise). */
    static final int FEWEST_INTERVALS = 10;
    /** A transient is named only when it moves the whole run's mean or p99 by at least this share. */
    static final double MATERIAL = 0.10;
    /** From this many measured intervals on, batches of five (MSER-5). */
    static final int BATCHES_OF_FIVE_FROM = 50;

    /** The transients of every operation and observation of the run, in the run's order; empty when none. */
    public static List<Transient> of(RunResult run) {
        List<Interval> measured = measuredIntervals(run);
        List<Transient> found = new ArrayList<>();
        Set<String> operations = new LinkedHashSet<>();
        measured.forEach(i -> operations.addAll(i.operations().keySet()));
        for (String op : operations) {
            find(op, measured, i -> {
                IntervalOperation o = i.operations().get(op);
                return o == null ? null : o.histogram();
            }).ifPresent(found::add);
        }
        Set<String> observations = new LinkedHashSet<>();
        measured.forEach(i -> observations.addAll(i.observations().keySet()));
        for (String name : observations) {
            find(name, measured, i -> {
                Timing t = i.observations().get(name);
                return t == null ? null : t.histogram();
            }).ifPresent(found::add);
        }
        return found;
    }

    private static List<Interval> measuredIntervals(RunResult run) {
        Set<String> measuredPhases = new java.util.HashSet<>();
        run.phases().stream().filter(Phase::isMeasured).forEach(p -> measuredPhases.add(p.name()));
        return run.intervals().stream()
                .filter(i -> run.phases().isEmpty() || measuredPhases.contains(i.phase())).toList();
    }

    /**
     * Reads the intervals twice, one histogram at a time: first their means (a run's thousands of intervals would
     * not fit as decoded histograms, each the size of the whole range), then, once the cut is known, the whole and the
     * steady sums.
     */
    private static java.util.Optional<Transient> find(String timing, List<Interval> intervals,
                                                      Function<Interval, String> histogramOf) {
        double[] means = new double[intervals.size()];
        for (int i = 0; i < intervals.size(); i++) {
            String encoded = histogramOf.apply(intervals.get(i));
            if (encoded == null) {
                return java.util.Optional.empty(); // an interval without it: no series to read a transient from
            }
            Histogram h = dev.gauntlet.core.result.HistogramCodec.decode(encoded);
            if (h.getTotalCount() == 0) {
                return java.util.Optional.empty();
            }
            means[i] = h.getMean();
        }
        int k = means.length;
        if (k < FEWEST_INTERVALS) {
            return java.util.Optional.empty();
        }
        int batch = k >= BATCHES_OF_FIVE_FROM ? 5 : 1;
        int batches = k / batch;
        double[] z = new double[batches];
        for (int j = 0; j < batches; j++) {
            double sum = 0;
            for (int i = j * batch; i < (j + 1) * batch; i++) {
                sum += means[i];
            }
            z[j] = sum / batch;
        }
        int cut = truncation(z);
        // A cut reaching half the run is no start-up transient: the run has not settled (too short to tell).
        if (cut == 0 || 2 * cut >= batches || !unlikeTheRest(z, cut)) {
            return java.util.Optional.empty();
        }
        cut = trimmed(z, cut);
        int cutIntervals = cut * batch;
        Histogram whole = Histograms.empty();
        Histogram steady = Histograms.empty();
        double cutSeconds = 0;
        for (int i = 0; i < k; i++) {
            Histogram h = dev.gauntlet.core.result.HistogramCodec.decode(histogramOf.apply(intervals.get(i)));
            whole.add(h);
            if (i >= cutIntervals) {
                steady.add(h);
            } else {
                cutSeconds += intervals.get(i).seconds();
            }
        }
        LatencySummary all = LatencySummary.of(whole);
        LatencySummary after = LatencySummary.of(steady);
        if (!moves(all.mean(), after.mean()) && !moves(all.p99(), after.p99())) {
            return java.util.Optional.empty(); // real, perhaps, but it changes nothing a reader would act on
        }
        return java.util.Optional.of(new Transient(timing, cutIntervals, k, cutSeconds, batch, all, after));
    }

    private static boolean moves(double whole, double steady) {
        return steady > 0 && Math.abs(whole - steady) >= MATERIAL * steady;
    }

    /**
     * MSER's truncation: the {@code d} in {@code [0, n/2]} minimising the remaining batches' squared deviation from
     * their mean over {@code (n - d)^2}; ties go to the smaller {@code d}.
     */
    static int truncation(double[] z) {
        int n = z.length;
        int best = 0;
        double bestScore = Double.POSITIVE_INFINITY;
        for (int d = 0; d <= n / 2; d++) {
            double mean = 0;
            for (int j = d; j < n; j++) {
                mean += z[j];
            }
            mean /= n - d;
            double squares = 0;
            for (int j = d; j < n; j++) {
                squares += (z[j] - mean) * (z[j] - mean);
            }
            double score = squares / ((double) (n - d) * (n - d));
            if (score < bestScore) {
                bestScore = score;
                best = d;
            }
        }
        return best;
    }

    /**
     * MSER may cut a batch or two of the steady state with the transient (a low one lowers the rest's spread); the
     * report names only the batches that differ: the last cut batches that lie within three standard deviations, or
     * 10%, of the rest's mean are given back, so "the first 10 s" is not stated as "the first 20 s".
     */
    static int trimmed(double[] z, int cut) {
        Spread rest = Spread.of(z, cut, z.length);
        int d = cut;
        while (d > 1 && !rest.beyond(z[d - 1])) {
            d--;
        }
        return d;
    }

    /** The cut batches' mean lies beyond three standard deviations of the rest, and 10% of their mean, from it. */
    static boolean unlikeTheRest(double[] z, int cut) {
        return Spread.of(z, cut, z.length).beyond(Spread.of(z, 0, cut).mean());
    }

    /** The mean and sample standard deviation of {@code z[from..to)}. */
    private record Spread(double mean, double sd) {

        static Spread of(double[] z, int from, int to) {
            double mean = java.util.Arrays.stream(z, from, to).average().orElse(0);
            double squares = java.util.Arrays.stream(z, from, to).map(v -> (v - mean) * (v - mean)).sum();
            return new Spread(mean, to - from > 1 ? Math.sqrt(squares / (to - from - 1)) : 0);
        }

        /** Beyond three standard deviations and 10% of the mean from it. */
        boolean beyond(double value) {
            double gap = Math.abs(value - mean);
            return gap > 3 * sd && gap > 0.1 * Math.abs(mean);
        }
    }

    /** The rule's name as reports cite it. */
    public String rule() {
        return batch == 5 ? "MSER-5" : "MSER";
    }

    /**
     * One line for the console and report.md: {@code transient: newOrder's first 10.0 s (1 of 12 intervals) are
     * unlike the rest (MSER); without them p50 11.20 ms, p99 20.40 ms; whole run p50 14.00 ms, p99 2,400.00 ms}.
     */
    public String line() {
        return String.format(Locale.ROOT, "transient: %s's first %.1f s (%d of %d intervals) are unlike the rest (%s); "
                        + "without them p50 %s ms, p99 %s ms; whole run p50 %s ms, p99 %s ms", timing, seconds,
                intervals, of, rule(), Figures.ms(steady.p50()), Figures.ms(steady.p99()), Figures.ms(whole.p50()),
                Figures.ms(whole.p99()));
    }
}

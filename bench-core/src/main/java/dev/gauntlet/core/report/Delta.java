package dev.gauntlet.core.report;

import dev.gauntlet.core.result.MetricInfo.Better;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One figure of two sides side by side: the baseline's value {@code a}, the other side's {@code b} (each read from
 * all of a side's runs together), the per-run values behind them, and which way is better.
 *
 * <p>The judgement is statistical, and {@link #outcome} is the one place it is made: every table, verdict and tally
 * reads it from there. With at least two runs per side, the 95% confidence interval of the difference of the
 * per-run means is Welch's t interval ({@link WelchInterval}); the threshold is the smallest change that matters.
 * <ul>
 * <li>A winner is named when the interval excludes zero and the change passes the threshold (|change| at least
 * the threshold).</li>
 * <li>Equal only when the whole interval lies within ±threshold of the baseline's mean: equality is shown (an
 * equivalence test, as two one-sided tests at 2.5% each), not merely failed to be refuted.</li>
 * <li>Real, below the threshold: the interval excludes zero but the change is smaller than the threshold and the
 * interval reaches beyond ±threshold. A difference is shown, too small to name a winner; equality is not.</li>
 * <li>Inconclusive otherwise: the interval spans zero and reaches beyond ±threshold, so it shows neither a
 * difference nor equality. {@link #runsToDecide} says how many runs per side would decide it.</li>
 * </ul>
 * With one run on a side there is no spread and no interval: nothing is shown either way ({@link
 * Outcome#NO_INTERVAL}), whatever the change. A figure declared neither better higher nor lower is shown and never
 * judged.
 *
 * @param metric  the row name, e.g. "p99 latency"
 * @param unit    how the values are written
 * @param better  which way the figure should move
 * @param a       the baseline side's value
 * @param b       the other side's value
 * @param samplesA the baseline's per-run values
 * @param samplesB the other side's per-run values
 */
public record Delta(String metric, Unit unit, Better better, double a, double b, double[] samplesA,
                    double[] samplesB) {

    /** What the figures show on this row (see the class comment for the rule). */
    public enum Outcome {
        /** The interval excludes zero and the change passes the threshold: the baseline is better. */
        BASELINE_BETTER,
        /** The interval excludes zero and the change passes the threshold: the other side is better. */
        OTHER_BETTER,
        /** The whole interval lies within ±threshold: any difference is too small to matter. */
        EQUAL,
        /** The interval excludes zero, but the change is below the threshold and the interval reaches beyond it. */
        BELOW_THRESHOLD,
        /** The interval spans zero and reaches beyond ±threshold: neither a difference nor equality is shown. */
        INCONCLUSIVE,
        /** A side has one run: no spread, no interval, so nothing is shown either way. */
        NO_INTERVAL,
        /** The figure has no better direction (declared {@link Better#NEITHER}). */
        NOT_JUDGED
    }

    /** How the values of a row are written. */
    public enum Unit {
        OPS_PER_SECOND(" ops/s"), MILLISECONDS(" ms"), COUNT(""), NUMBER("");

        private final String suffix;

        Unit(String suffix) {
            this.suffix = suffix;
        }

        public String format(double value) {
            return switch (this) {
                case OPS_PER_SECOND -> Figures.rate(value);
                case MILLISECONDS -> Figures.ms(value);
                // A count per run is whole for one run and may be fractional as a mean of several.
                case COUNT -> value == Math.rint(value) ? Figures.count(Math.round(value)) : Figures.metric(value);
                case NUMBER -> Figures.metric(value);
            } + suffix;
        }
    }

    public Delta {
        samplesA = samplesA == null ? new double[] {a} : samplesA.clone();
        samplesB = samplesB == null ? new double[] {b} : samplesB.clone();
    }

    /** (b - a) / a in percent; 0 when both are 0, NaN when only the baseline is 0 (no finite change). */
    public double changePercent() {
        if (a == b) {
            return 0.0;
        }
        return a == 0 ? Double.NaN : (b - a) / Math.abs(a) * 100.0;
    }

    /** True when both sides have the two runs or more that a confidence interval needs. */
    public boolean repeated() {
        return samplesA.length >= 2 && samplesB.length >= 2;
    }

    /**
     * The 95% confidence interval of mean(b) - mean(a) over the per-run values (Welch), or empty with fewer than
     * two runs on a side.
     */
    public Optional<double[]> confidenceInterval() {
        return interval().map(i -> new double[] {i.low(), i.high()});
    }

    private Optional<WelchInterval> interval() {
        return WelchInterval.of(samplesA, samplesB);
    }

    /** The rule of the class comment, in the order it is written there. */
    public Outcome outcome(double thresholdPercent) {
        if (better == Better.NEITHER) {
            return Outcome.NOT_JUDGED;
        }
        Optional<WelchInterval> ci = interval();
        if (ci.isEmpty()) {
            return Outcome.NO_INTERVAL;
        }
        WelchInterval i = ci.get();
        boolean excludesZero = i.low() > 0 || i.high() < 0;
        if (excludesZero && passes(thresholdPercent)) {
            boolean otherHigher = b > a;
            return otherHigher == (better == Better.HIGHER) ? Outcome.OTHER_BETTER : Outcome.BASELINE_BETTER;
        }
        double margin = margin(i, thresholdPercent);
        if (i.low() >= -margin && i.high() <= margin) {
            return Outcome.EQUAL;
        }
        return excludesZero ? Outcome.BELOW_THRESHOLD : Outcome.INCONCLUSIVE;
    }

    /**
     * How many runs per side would decide this figure at the spread observed, for a figure that is {@link
     * Outcome#INCONCLUSIVE}; empty with one run on a side (no spread to go by). With d the observed difference of the
     * per-run means (the interval's centre), m the baseline's mean, T = threshold × |m| and h(n) the half-width with
     * n runs on each side at the per-run variances observed ({@link WelchInterval}: t(0.975, df(n)) ×
     * √((s_a² + s_b²)/n)), it is the fewest n for which either h(n) &lt; |d| (the interval would exclude zero;
     * counted only when the change passes the threshold, the only case in which that names a winner) or
     * |d| + h(n) &le; T (the interval would lie within ±threshold: Equal). It assumes the spread and the difference
     * stay as observed; more runs may move both.
     */
    public Optional<RunsToDecide> runsToDecide(double thresholdPercent) {
        return interval().map(i -> {
            double d = Math.abs(i.difference());
            double margin = margin(i, thresholdPercent);
            boolean winnable = passes(thresholdPercent) && d > 0;
            if (!winnable && d >= margin) {
                return new RunsToDecide.Never();
            }
            OptionalInt n = i.runsPerSide(h -> (winnable && h < d) || d + h <= margin);
            return n.isPresent() ? new RunsToDecide.Runs(n.getAsInt()) : new RunsToDecide.MoreThanLimit();
        });
    }

    /** True when the change is at least the threshold: a change from zero always is, no change never is. */
    private boolean passes(double thresholdPercent) {
        double change = changePercent();
        return change != 0.0 && (Double.isNaN(change) || Math.abs(change) >= thresholdPercent);
    }

    /** ±threshold in the figure's own unit: the threshold's share of the baseline's mean. */
    private static double margin(WelchInterval i, double thresholdPercent) {
        return thresholdPercent / 100.0 * Math.abs(i.meanA());
    }

    /** The change as the table shows it, e.g. {@code ▲ +12.3%}; a change from zero has no percentage. */
    public String changeText() {
        double change = changePercent();
        if (Double.isNaN(change)) {
            return (b > a ? "▲ " : "▼ ") + "from 0";
        }
        if (change == 0.0) {
            return "0.0%";
        }
        return (change > 0 ? "▲ " : "▼ ") + Figures.signedPercent(change);
    }

    /** The confidence interval of the change relative to the baseline's mean, e.g. {@code +8.1%..+15.0%}. */
    public String confidenceText() {
        Optional<WelchInterval> ci = interval();
        if (ci.isEmpty() || ci.get().meanA() == 0) {
            return "—";
        }
        double base = Math.abs(ci.get().meanA());
        return Figures.signedPercent(ci.get().low() / base * 100) + ".."
                + Figures.signedPercent(ci.get().high() / base * 100);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Delta d && metric.equals(d.metric) && unit == d.unit && better == d.better
                && Double.compare(a, d.a) == 0 && Double.compare(b, d.b) == 0
                && Arrays.equals(samplesA, d.samplesA) && Arrays.equals(samplesB, d.samplesB);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(metric, unit, better, a, b, Arrays.hashCode(samplesA), Arrays.hashCode(samplesB));
    }

    @Override
    public String toString() {
        return metric + ": " + a + " " + Arrays.toString(samplesA) + " vs " + b + " " + Arrays.toString(samplesB);
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.MetricInfo.Better;
import java.util.Arrays;
import java.util.Optional;

/**
 * One figure of two sides side by side: the baseline's value {@code a}, the other side's {@code b} (each read from
 * all of a side's runs together), the per-run values behind them, and which way is better.
 *
 * <p>The judgement is statistical. With at least two runs per side, the 95% confidence interval of the difference
 * of the per-run means comes from Welch's t test (unequal variances); the figure is Equal when that interval spans
 * zero, or when the change is smaller than the noise threshold (a difference too small to matter). A winner is named
 * only when neither holds. With one run on a side there is no spread to judge by: a change beyond the threshold is
 * reported without a winner ("one run each: no confidence"). A figure declared neither better higher nor lower is
 * shown and never judged.
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

    /** Who came out ahead on this figure. */
    public enum Outcome {
        BASELINE_BETTER, OTHER_BETTER, EQUAL,
        /** Beyond the threshold, but one run on a side gives no confidence to name a winner. */
        NO_CONFIDENCE,
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
        if (!repeated()) {
            return Optional.empty();
        }
        int na = samplesA.length;
        int nb = samplesB.length;
        double ma = mean(samplesA);
        double mb = mean(samplesB);
        double va = variance(samplesA, ma) / na;
        double vb = variance(samplesB, mb) / nb;
        double diff = mb - ma;
        double se = Math.sqrt(va + vb);
        if (se == 0) {
            return Optional.of(new double[] {diff, diff});
        }
        double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
        double t = StudentT.quantile(0.975, df);
        return Optional.of(new double[] {diff - t * se, diff + t * se});
    }

    public Outcome outcome(double thresholdPercent) {
        if (better == Better.NEITHER) {
            return Outcome.NOT_JUDGED;
        }
        double change = changePercent();
        if (change == 0.0 || (!Double.isNaN(change) && Math.abs(change) < thresholdPercent)) {
            return Outcome.EQUAL;
        }
        Optional<double[]> ci = confidenceInterval();
        if (ci.isEmpty()) {
            return Outcome.NO_CONFIDENCE;
        }
        if (ci.get()[0] <= 0 && ci.get()[1] >= 0) {
            return Outcome.EQUAL;
        }
        boolean otherHigher = b > a;
        return otherHigher == (better == Better.HIGHER) ? Outcome.OTHER_BETTER : Outcome.BASELINE_BETTER;
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
        Optional<double[]> ci = confidenceInterval();
        double base = mean(samplesA);
        if (ci.isEmpty() || base == 0) {
            return "—";
        }
        return Figures.signedPercent(ci.get()[0] / Math.abs(base) * 100) + ".."
                + Figures.signedPercent(ci.get()[1] / Math.abs(base) * 100);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    private static double variance(double[] v, double mean) {
        double s = 0;
        for (double x : v) {
            s += (x - mean) * (x - mean);
        }
        return v.length < 2 ? 0 : s / (v.length - 1);
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

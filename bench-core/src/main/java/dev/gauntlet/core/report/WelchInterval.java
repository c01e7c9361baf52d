package dev.gauntlet.core.report;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.DoublePredicate;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The 95% confidence interval of mean(b) - mean(a) over the per-run values of two sides (Welch's t interval:
 * unequal variances, Welch-Satterthwaite degrees of freedom), and how narrow it would be with more runs at the same
 * spread.
 *
 * <p>With s_a² and s_b² the sample variances of the per-run values and n_a, n_b the runs per side, the half-width is
 * t(0.975, df) × √(s_a²/n_a + s_b²/n_b) with df = (s_a²/n_a + s_b²/n_b)² / ((s_a²/n_a)²/(n_a−1) +
 * (s_b²/n_b)²/(n_b−1)). With n runs on each side and the variances observed, that becomes
 * h(n) = t(0.975, (n−1)(s_a²+s_b²)²/(s_a⁴+s_b⁴)) × √((s_a²+s_b²)/n), which only shrinks as n grows.
 *
 * <p>The quantiles t(0.975, df) are Apache Commons Statistics' ({@link TDistribution}), for any df, Welch's
 * fractional ones included.
 *
 * @param meanA     the mean of the baseline's per-run values
 * @param meanB     the mean of the other side's per-run values
 * @param varianceA the sample variance of the baseline's per-run values
 * @param varianceB the sample variance of the other side's per-run values
 * @param runsA     the baseline's number of runs, at least 2
 * @param runsB     the other side's number of runs, at least 2
 */
record WelchInterval(double meanA, double meanB, double varianceA, double varianceB, int runsA, int runsB) {

    private static final double CONFIDENCE_QUANTILE = 0.975;

    /** The interval of two sides' per-run values, or empty when a side has fewer than the two runs it needs. */
    static Optional<WelchInterval> of(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            return Optional.empty();
        }
        double ma = mean(a);
        double mb = mean(b);
        return Optional.of(new WelchInterval(ma, mb, variance(a, ma), variance(b, mb), a.length, b.length));
    }

    /** mean(b) - mean(a): the interval's centre. */
    double difference() {
        return meanB - meanA;
    }

    double low() {
        return difference() - halfWidth();
    }

    double high() {
        return difference() + halfWidth();
    }

    /** The half-width with the runs each side has. */
    double halfWidth() {
        double va = varianceA / runsA;
        double vb = varianceB / runsB;
        if (va + vb == 0) {
            return 0;
        }
        double df = (va + vb) * (va + vb) / (va * va / (runsA - 1) + vb * vb / (runsB - 1));
        return t(df) * Math.sqrt(va + vb);
    }

    /** The half-width h(n) the interval would have with {@code n} runs on each side at the variances observed. */
    double halfWidth(int n) {
        double sum = varianceA + varianceB;
        if (sum == 0) {
            return 0;
        }
        double df = (n - 1) * sum * sum / (varianceA * varianceA + varianceB * varianceB);
        return t(df) * Math.sqrt(sum / n);
    }

    /**
     * The fewest runs per side (2 to {@link RunsToDecide#LIMIT}) whose half-width h(n) satisfies {@code enough},
     * or empty when none does. h(n) only shrinks as n grows, so the first n that is enough is found by bisection.
     */
    OptionalInt runsPerSide(DoublePredicate enough) {
        if (!enough.test(halfWidth(RunsToDecide.LIMIT))) {
            return OptionalInt.empty();
        }
        int lo = 2;
        int hi = RunsToDecide.LIMIT;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (enough.test(halfWidth(mid))) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return OptionalInt.of(lo);
    }

    /** t(0.975, df): Student's t quantile. */
    private static double t(double df) {
        return TDistribution.of(df).inverseCumulativeProbability(CONFIDENCE_QUANTILE);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    private static double variance(double[] v, double mean) {
        double s = 0;
        for (double x : v) {
            s += (x - mean) * (x - mean);
        }
        return s / (v.length - 1);
    }
}

package dev.gauntlet.core.report;

/**
 * Quantiles of Student's t distribution, for confidence intervals of a difference between repeated runs. Computed
 * from the regularized incomplete beta function (a continued fraction, as in Numerical Recipes' {@code betacf}),
 * so any degrees of freedom work, including Welch's fractional ones.
 */
final class StudentT {

    private StudentT() {
    }

    /** The value t with P(T <= t) = {@code p} for {@code df} degrees of freedom (p in (0.5, 1)). */
    static double quantile(double p, double df) {
        if (!(p > 0.5 && p < 1) || !(df > 0)) {
            throw new IllegalArgumentException("quantile needs 0.5 < p < 1 and df > 0, got p=" + p + ", df=" + df);
        }
        double lo = 0;
        double hi = 1;
        while (cdf(hi, df) < p) {
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** P(T <= t) for t >= 0. */
    static double cdf(double t, double df) {
        double x = df / (df + t * t);
        return 1 - 0.5 * regularizedBeta(x, df / 2, 0.5);
    }

    private static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
        if (x < (a + 1) / (a + b + 2)) {
            return front * continuedFraction(x, a, b) / a;
        }
        return 1 - front * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 300; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            double step = d * c;
            h *= step;
            if (Math.abs(step - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    private static double nonZero(double v, double tiny) {
        return Math.abs(v) < tiny ? tiny : v;
    }

    /** Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for positive arguments. */
    private static double logGamma(double x) {
        double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        x -= 1;
        double sum = c[0];
        for (int i = 1; i < 9; i++) {
            sum += c[i] / (x + i);
        }
        double t = x + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}

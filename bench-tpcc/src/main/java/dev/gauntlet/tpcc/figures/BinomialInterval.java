package dev.gauntlet.tpcc.figures;

import java.math.BigDecimal;
import java.math.MathContext;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The two-sided acceptance interval of a binomial count: of runs that draw each of {@code n} trials with
 * probability {@code p}, as the workload does, at most {@code falseAlarms} land outside {@code lo..hi} (at most half
 * of that on each side; at 0.001, the 99.9% interval: 1 run in 1,000). The audit uses it because the spec's bands are meant for runs of hours: at 10,000
 * New-Orders the 0.9-1.1% rollback band is one standard deviation wide each side and fails a third of correct
 * runs.
 *
 * <p>Exact, from the binomial distribution itself (Apache Commons Statistics' {@link BinomialDistribution}): the
 * normal approximation {@code p ± 3.29 sd} is skewed at the audit's small expected counts (100 rollbacks in 10,000
 * New-Orders) and fails about 1.2 correct runs in 1,000 there instead of at most 1.
 *
 * @param p  the probability of one trial, as the workload draws it
 * @param n  the trials
 * @param lo the least count accepted: the least whose lower tail P(X &lt;= lo) exceeds {@link #FALSE_ALARMS} / 2
 * @param hi the greatest count accepted: the greatest whose upper tail P(X &gt;= hi) exceeds it
 * @param falseAlarms how often a correct run falls outside, at most
 */
record BinomialInterval(double p, long n, long lo, long hi, double falseAlarms) {

    /** The most trials an interval can have: the library counts them in an {@code int}. */
    static final long MOST_TRIALS = Integer.MAX_VALUE;

    /**
     * The interval of {@code n} trials (at most {@link #MOST_TRIALS}) drawn with probability {@code p} outside which
     * a correct run falls at most {@code falseAlarms} of the time.
     */
    static BinomialInterval around(double p, long n, double falseAlarms) {
        if (p <= 0 || p >= 1) {
            throw new IllegalArgumentException("a drawn share must lie strictly between 0 and 1: " + p);
        }
        if (n < 0 || n > MOST_TRIALS) {
            throw new IllegalArgumentException("the trials must lie between 0 and " + MOST_TRIALS + ": " + n);
        }
        if (!(falseAlarms > 0 && falseAlarms < 1)) {
            throw new IllegalArgumentException("false alarms must lie strictly between 0 and 1: " + falseAlarms);
        }
        BinomialDistribution counts = BinomialDistribution.of((int) n, p);
        double tail = falseAlarms / 2;
        // The library's inverses are the least x with P(X <= x) >= their argument and the least x with
        // P(X > x) <= it. The next double above the tail makes the first "exceeds"; the second is the greatest hi
        // with P(X >= hi) = P(X > hi - 1) > tail.
        return new BinomialInterval(p, n, counts.inverseCumulativeProbability(Math.nextUp(tail)),
                counts.inverseSurvivalProbability(tail), falseAlarms);
    }

    /** How details name an interval at this rate of false alarms, e.g. {@code 99.999% binomial interval}. */
    static String name(double falseAlarms) {
        return new BigDecimal(100 * (1 - falseAlarms)).round(new MathContext(12))
                .stripTrailingZeros().toPlainString() + "% binomial interval";
    }

    /**
     * The fewest trials for which the interval around {@code p} is not {@link #vacuous()} at {@code falseAlarms}: both
     * none and all of them are then rarer than half of it.
     */
    static long leastMeaningfulSample(double p, double falseAlarms) {
        double tail = Math.log(falseAlarms / 2);
        return (long) Math.ceil(Math.max(tail / Math.log(1 - p), tail / Math.log(p)));
    }

    boolean accepts(long count) {
        return count >= lo && count <= hi;
    }

    /**
     * True when the interval reaches 0 or {@code n}: a run that never (or always) did the thing would be
     * accepted, so the test could not tell a broken workload from a correct one and means nothing.
     */
    boolean vacuous() {
        return lo == 0 || hi == n;
    }

    double loPercent() {
        return 100.0 * lo / n;
    }

    double hiPercent() {
        return 100.0 * hi / n;
    }
}

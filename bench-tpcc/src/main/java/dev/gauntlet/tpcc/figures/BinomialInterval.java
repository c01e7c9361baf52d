package dev.gauntlet.tpcc.figures;

import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The two-sided 99.9% acceptance interval of a binomial count: of runs that draw each of {@code n} trials
 * with probability {@code p}, as the workload does, at most 1 in 1,000 lands outside {@code lo..hi} (at most 1
 * in 2,000 on each side). The audit uses it because the spec's bands are meant for runs of hours: at 10,000
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
 */
record BinomialInterval(double p, long n, long lo, long hi) {

    /** How often a correct run falls outside, at most. */
    static final double FALSE_ALARMS = 0.001;

    /** How details name it. */
    static final String NAME = "99.9% binomial interval";

    /** The most trials an interval can have: the library counts them in an {@code int}. */
    static final long MOST_TRIALS = Integer.MAX_VALUE;

    /** The interval of {@code n} trials (at most {@link #MOST_TRIALS}) drawn with probability {@code p}. */
    static BinomialInterval around(double p, long n) {
        if (p <= 0 || p >= 1) {
            throw new IllegalArgumentException("a drawn share must lie strictly between 0 and 1: " + p);
        }
        if (n < 0 || n > MOST_TRIALS) {
            throw new IllegalArgumentException("the trials must lie between 0 and " + MOST_TRIALS + ": " + n);
        }
        BinomialDistribution counts = BinomialDistribution.of((int) n, p);
        double tail = FALSE_ALARMS / 2;
        // The library's inverses are the least x with P(X <= x) >= their argument and the least x with
        // P(X > x) <= it. The next double above the tail makes the first "exceeds"; the second is the greatest hi
        // with P(X >= hi) = P(X > hi - 1) > tail.
        return new BinomialInterval(p, n, counts.inverseCumulativeProbability(Math.nextUp(tail)),
                counts.inverseSurvivalProbability(tail));
    }

    /**
     * The fewest trials for which the interval around {@code p} is not {@link #vacuous()}: both none and all
     * of them are then rarer than 1 in 2,000.
     */
    static long leastMeaningfulSample(double p) {
        double tail = Math.log(FALSE_ALARMS / 2);
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

package dev.gauntlet.tpcc.figures;

/**
 * The two-sided 99.9% acceptance interval of a binomial count: of runs that draw each of {@code n} trials
 * with probability {@code p}, as the workload does, at most 1 in 1,000 lands outside {@code lo..hi} (at most 1
 * in 2,000 on each side). The audit uses it because the spec's bands are meant for runs of hours: at 10,000
 * New-Orders the 0.9-1.1% rollback band is one standard deviation wide each side and fails a third of correct
 * runs.
 *
 * <p>Exact, from the binomial distribution itself: the normal approximation {@code p ± 3.29 sd} is skewed at
 * the audit's small expected counts (100 rollbacks in 10,000 New-Orders) and fails about 1.2 correct runs in
 * 1,000 there instead of at most 1.
 *
 * @param p  the probability of one trial, as the workload draws it
 * @param n  the trials
 * @param lo the least count accepted
 * @param hi the greatest count accepted
 */
record BinomialInterval(double p, long n, long lo, long hi) {

    /** How often a correct run falls outside, at most. */
    static final double FALSE_ALARMS = 0.001;

    /** How details name it. */
    static final String NAME = "99.9% binomial interval";

    /**
     * Standard deviations either side of the mode over which probabilities are summed; what lies beyond
     * weighs less than 1e-30 and cannot move a bound.
     */
    private static final int WINDOW_DEVIATIONS = 12;

    static BinomialInterval around(double p, long n) {
        if (p <= 0 || p >= 1) {
            throw new IllegalArgumentException("a drawn share must lie strictly between 0 and 1: " + p);
        }
        if (n == 0) {
            return new BinomialInterval(p, 0, 0, 0);
        }
        // Probabilities relative to the mode's, by the ratio of neighbours P(k+1)/P(k) = (n-k)/(k+1) * p/(1-p):
        // no factorials, no overflow, and O(sqrt(n)) work however long the run was.
        long mode = Math.min(n, (long) Math.floor((n + 1) * p));
        long reach = (long) Math.ceil(WINDOW_DEVIATIONS * Math.sqrt(n * p * (1 - p))) + 20;
        long from = Math.max(0, mode - reach);
        long to = Math.min(n, mode + reach);
        double[] weight = new double[(int) (to - from + 1)];
        weight[(int) (mode - from)] = 1;
        double odds = p / (1 - p);
        for (long k = mode; k < to; k++) {
            weight[(int) (k + 1 - from)] = weight[(int) (k - from)] * (n - k) / (k + 1) * odds;
        }
        for (long k = mode; k > from; k--) {
            weight[(int) (k - 1 - from)] = weight[(int) (k - from)] * k / (n - k + 1) / odds;
        }
        double total = 0;
        for (double w : weight) {
            total += w;
        }
        double tail = FALSE_ALARMS / 2 * total;
        long lo = from;
        for (double below = 0; below + weight[(int) (lo - from)] <= tail; lo++) {
            below += weight[(int) (lo - from)];
        }
        long hi = to;
        for (double above = 0; above + weight[(int) (hi - from)] <= tail; hi--) {
            above += weight[(int) (hi - from)];
        }
        return new BinomialInterval(p, n, lo, hi);
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

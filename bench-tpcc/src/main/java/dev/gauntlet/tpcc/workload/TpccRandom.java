package dev.gauntlet.tpcc.workload;

import java.util.SplittableRandom;

/**
 * The specification's random functions (clause 2.1.6 and 4.3.2): uniform integers, NURand, a-strings and
 * n-strings, zip codes, last names, and data fields of which 10% carry "ORIGINAL". Not thread-safe: one per
 * loader thread or terminal.
 */
public final class TpccRandom {

    private static final String[] SYLLABLES = {
            "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final SplittableRandom random;

    public TpccRandom(SplittableRandom random) {
        this.random = random;
    }

    public TpccRandom(long seed) {
        this(new SplittableRandom(seed));
    }

    /** Uniform in [lo, hi], both inclusive. */
    public int uniform(int lo, int hi) {
        return random.nextInt(lo, hi + 1);
    }

    public double nextDouble() {
        return random.nextDouble();
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
    public int nuRand(int a, int x, int y, int c) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A random customer id under the run's constant: NURand(1023, 1, 3000). */
    public int customerId(NURandConstants c) {
        return nuRand(1023, 1, Scale.CUSTOMERS_PER_DISTRICT, c.customerId());
    }

    /** A random item id under the run's constant: NURand(8191, 1, 100000). */
    public int itemId(NURandConstants c) {
        return nuRand(8191, 1, Scale.ITEMS, c.itemId());
    }

    /** A random last name under the run's constant: syllables of NURand(255, 0, 999). */
    public String lastName(NURandConstants c) {
        return lastName(nuRand(255, 0, 999, c.lastName()));
    }

    /** The last name whose three digits are {@code n} (0..999), e.g. 371 -> "PRICALLYOUGHT". */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** Random alphanumeric string of length in [lo, hi]. */
    public String aString(int lo, int hi) {
        char[] chars = new char[uniform(lo, hi)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(chars);
    }

    /** Random numeric string of length in [lo, hi]. */
    public String nString(int lo, int hi) {
        char[] chars = new char[uniform(lo, hi)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(chars);
    }

    /** Four random digits followed by "11111" (clause 4.3.2.7). */
    public String zip() {
        return nString(4, 4) + "11111";
    }

    /** An a-string of [lo, hi] characters, 10% of them with "ORIGINAL" at a random position (i_data, s_data). */
    public String data(int lo, int hi) {
        String s = aString(lo, hi);
        if (random.nextInt(10) != 0) {
            return s;
        }
        int at = random.nextInt(s.length() - 8 + 1);
        return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
    }

    /** A fixed-point amount in hundredths, uniform in [lo, hi] hundredths. */
    public long cents(long lo, long hi) {
        return random.nextLong(lo, hi + 1);
    }

    /** A random permutation of 1..n (order customer ids at load). */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /** Negative-exponential with the given mean, capped at 10x the mean (clause 5.2.5.4). */
    public double negativeExponential(double mean) {
        double r = -Math.log(1 - random.nextDouble()) * mean;
        return Math.min(r, 10 * mean);
    }
}

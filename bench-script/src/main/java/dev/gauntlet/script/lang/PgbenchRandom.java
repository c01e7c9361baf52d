package dev.gauntlet.script.lang;

/**
 * A pseudo-random state and its draws, bit for bit as pgbench 15's: PostgreSQL's {@code pg_prng} (xoroshiro128**
 * 1.0, seeded through splitmix64, never all zeroes) and pgbench's {@code getrand}, {@code getExponentialRand},
 * {@code getGaussianRand}, {@code getZipfianRand} and {@code getPoissonRand} over it.
 *
 * <p>A state is mutable and not thread-safe: each client, and each of a thread's three purposes, has its own
 * ({@link PgbenchSeeds}). pgbench saves a client's state before a transaction and restores it to retry the
 * transaction after a serialization failure or a deadlock, so that the retry draws the same values: {@link #copy()}.
 *
 * <p>The distributions use {@link Math#log}, {@link Math#exp}, {@link Math#pow} and {@link Math#sin}, which agree
 * with glibc's libm to the last bit in all but about one call in a thousand; the integer a draw returns only changes
 * if that last bit moves a value across an integer, which practically never happens (see the conformance report).
 */
public final class PgbenchRandom {

    /** Smallest parameter of {@code random_gaussian}. */
    public static final double MIN_GAUSSIAN_PARAMETER = 2.0;
    /** Smallest parameter of {@code random_zipfian}. */
    public static final double MIN_ZIPFIAN_PARAMETER = 1.001;
    /** Largest parameter of {@code random_zipfian}. */
    public static final double MAX_ZIPFIAN_PARAMETER = 1000.0;

    private long s0;
    private long s1;

    private PgbenchRandom(long s0, long s1) {
        this.s0 = s0;
        this.s1 = s1;
    }

    /**
     * A state seeded as {@code pg_prng_seed} does: two splitmix64 outputs of the seed, replaced by fixed non-zero
     * words should both be zero.
     *
     * @param seed the seed, an unsigned 64-bit integer held in a long
     * @return the state
     */
    public static PgbenchRandom seeded(long seed) {
        long mixer = seed;
        mixer += 0x9E3779B97F4A7C15L;
        long first = splitmix(mixer);
        mixer += 0x9E3779B97F4A7C15L;
        long second = splitmix(mixer);
        if (first == 0 && second == 0) {
            first = 0x5851F42D4C957F2DL;
            second = 0x14057B7EF767814FL;
        }
        return new PgbenchRandom(first, second);
    }

    private static long splitmix(long state) {
        long value = state;
        value = (value ^ (value >>> 30)) * 0xBF58476D1CE4E5B9L;
        value = (value ^ (value >>> 27)) * 0x94D049BB133111EBL;
        return value ^ (value >>> 31);
    }

    /**
     * A copy of this state: drawing from one leaves the other as it was.
     *
     * @return the copy
     */
    public PgbenchRandom copy() {
        return new PgbenchRandom(s0, s1);
    }

    /**
     * Sets this state to another's, as pgbench restores a client's state to retry a transaction.
     *
     * @param other the state to copy
     */
    public void restore(PgbenchRandom other) {
        this.s0 = other.s0;
        this.s1 = other.s1;
    }

    /**
     * The next 64 random bits ({@code pg_prng_uint64}).
     *
     * @return an unsigned 64-bit integer held in a long
     */
    public long nextLong() {
        long first = s0;
        long mixed = s1 ^ first;
        long value = Long.rotateLeft(first * 5, 7) * 9;
        s0 = Long.rotateLeft(first, 24) ^ mixed ^ (mixed << 16);
        s1 = Long.rotateLeft(mixed, 37);
        return value;
    }

    /**
     * A uniform unsigned integer in {@code [min, max]} by bitmask rejection ({@code pg_prng_uint64_range}); if the
     * range is empty, {@code min} without a draw.
     *
     * @param min the smallest value, unsigned
     * @param max the largest value, unsigned
     * @return the value, unsigned
     */
    public long nextLong(long min, long max) {
        if (Long.compareUnsigned(max, min) <= 0) {
            return min;
        }
        long range = max - min;
        int shift = Long.numberOfLeadingZeros(range);
        long value;
        do {
            value = nextLong() >>> shift;
        } while (Long.compareUnsigned(value, range) > 0);
        return min + value;
    }

    /**
     * A uniform double in {@code [0, 1)} with 52 random bits ({@code pg_prng_double}).
     *
     * @return the double
     */
    public double nextDouble() {
        return (nextLong() >>> 12) * 0x1p-52;
    }

    /**
     * Checks a range as pgbench does before any random function draws.
     *
     * @param min the smallest value
     * @param max the largest value
     * @throws ScriptException {@code empty range given to random} or {@code random range is too large} (when
     *                         {@code max - min + 1} does not fit in 64 bits)
     */
    public static void checkRange(long min, long max) throws ScriptException {
        if (min > max) {
            throw new ScriptException("empty range given to random");
        }
        long delta = max - min;
        if (((max ^ min) & (max ^ delta)) < 0 || delta == Long.MAX_VALUE) {
            throw new ScriptException("random range is too large");
        }
    }

    /**
     * {@code random(min, max)}: uniform in {@code [min, max]} ({@code getrand}).
     *
     * @param min the smallest value
     * @param max the largest value
     * @return the value
     * @throws ScriptException as {@link #checkRange}
     */
    public long uniform(long min, long max) throws ScriptException {
        checkRange(min, max);
        return min + nextLong(0, max - min);
    }

    /**
     * {@code random_exponential(min, max, parameter)} ({@code getExponentialRand}).
     *
     * @param min       the smallest value
     * @param max       the largest value
     * @param parameter the rate: the density at {@code max} is {@code exp(-parameter)} times that at {@code min}
     * @return the value
     * @throws ScriptException as {@link #checkRange}, or {@code exponential parameter must be greater than zero (not
     *                         X)}
     */
    public long exponential(long min, long max, double parameter) throws ScriptException {
        checkRange(min, max);
        if (parameter <= 0.0) {
            throw new ScriptException("exponential parameter must be greater than zero (not "
                    + NumberText.formatF(parameter) + ")");
        }
        double cut = Math.exp(-parameter);
        double uniform = 1.0 - nextDouble();
        double rand = -Math.log(cut + (1.0 - cut) * uniform) / parameter;
        return min + CMath.truncate((max - min + 1) * rand);
    }

    /**
     * {@code random_gaussian(min, max, parameter)} ({@code getGaussianRand}): Box-Muller draws until one falls in
     * {@code [-parameter, parameter)}, mapped onto the range.
     *
     * @param min       the smallest value
     * @param max       the largest value
     * @param parameter how many standard deviations the range spans on each side of its middle
     * @return the value
     * @throws ScriptException as {@link #checkRange}, or {@code gaussian parameter must be at least 2.000000 (not X)}
     */
    public long gaussian(long min, long max, double parameter) throws ScriptException {
        checkRange(min, max);
        if (parameter < MIN_GAUSSIAN_PARAMETER) {
            throw new ScriptException("gaussian parameter must be at least "
                    + NumberText.formatF(MIN_GAUSSIAN_PARAMETER) + " (not " + NumberText.formatF(parameter) + ")");
        }
        double stdev;
        do {
            double rand1 = 1.0 - nextDouble();
            double rand2 = 1.0 - nextDouble();
            double radius = Math.sqrt(-2.0 * Math.log(rand1));
            stdev = radius * Math.sin(2.0 * Math.PI * rand2);
        } while (stdev < -parameter || stdev >= parameter);
        double rand = (stdev + parameter) / (parameter * 2.0);
        return min + CMath.truncate((max - min + 1) * rand);
    }

    /**
     * {@code random_zipfian(min, max, s)} ({@code getZipfianRand}): Devroye's rejection method. Like pgbench, it
     * never returns for a NaN parameter.
     *
     * @param min the smallest value
     * @param max the largest value
     * @param s   the exponent, in {@code [1.001, 1000]}
     * @return the value
     * @throws ScriptException as {@link #checkRange}, or {@code zipfian parameter must be in range [1.001, 1000] (not
     *                         X)}
     */
    public long zipfian(long min, long max, double s) throws ScriptException {
        checkRange(min, max);
        if (s < MIN_ZIPFIAN_PARAMETER || s > MAX_ZIPFIAN_PARAMETER) {
            throw new ScriptException("zipfian parameter must be in range [1.001, 1000] (not "
                    + NumberText.formatF(s) + ")");
        }
        long n = max - min + 1;
        return min - 1 + iterativeZipfian(n, s);
    }

    private long iterativeZipfian(long n, double s) {
        if (n <= 1) {
            return 1;
        }
        double b = Math.pow(2.0, s - 1.0);
        double x;
        while (true) {
            double u = nextDouble();
            double v = nextDouble();
            x = Math.floor(CMath.pow(u, -1.0 / (s - 1.0)));
            double t = CMath.pow(1.0 + 1.0 / x, s - 1.0);
            if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n) {
                break;
            }
        }
        return CMath.truncate(x);
    }

    /**
     * A Poisson-like delay around {@code center} ({@code getPoissonRand}), as pgbench schedules transactions under
     * {@code --rate} from a thread's throttle state.
     *
     * @param center the mean
     * @return the value, rounded
     */
    public long poisson(double center) {
        double uniform = 1.0 - nextDouble();
        return CMath.truncate(-Math.log(uniform) * center + 0.5);
    }

    @Override
    public String toString() {
        return "PgbenchRandom[" + Long.toHexString(s0) + ", " + Long.toHexString(s1) + "]";
    }
}

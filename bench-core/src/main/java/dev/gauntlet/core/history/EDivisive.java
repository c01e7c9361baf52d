package dev.gauntlet.core.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Where a figure's level moved over successive runs: E-divisive means (Matteson &amp; James 2014, "A nonparametric
 * approach for multiple change point analysis of multivariate data", as MongoDB's signal-processing-algorithms and
 * Apache Otava/Hunter use it) over one figure's values, oldest first (a p99 latency run after run).
 *
 * <p>The series is cut in two where the values before and after differ most in distribution (the energy distance
 * of the two sides, scaled by their sizes: q-hat, with absolute differences, alpha = 1), so a step in the mean and a
 * change in the spread are both found. A cut is kept only if a permutation test says so: the values are shuffled
 * within each current segment, and the cut is significant when shuffles seldom give as large a q-hat anywhere. Kept
 * cuts split their segment, and the search goes on in the pieces until the best remaining cut is not significant.
 * The shuffles come from a generator seeded by {@link Options#seed()}, so the same values always give the same
 * change points.
 *
 * <p>Cost: each test is {@code permutations} times O(n²) for n values, so a few hundred runs take well under a
 * second per change point.
 */
public final class EDivisive {

    /** Relative tolerance under which a shuffle's q-hat counts as equal to the observed one (ties count). */
    private static final double TIE_TOLERANCE = 1e-9;

    private EDivisive() {
    }

    /**
     * How strict the search is.
     *
     * @param pValue       the significance level a change must reach: a cut is kept when at most this share of
     *                     shuffles (counting the observed order) gives as large a q-hat; default 0.05
     * @param permutations how many shuffles each test draws; default 999 (the smallest p-value it can give is
     *                     1 / (permutations + 1))
     * @param minSize      the fewest values on each side of a change; default 3, so a change shows as soon as three
     *                     runs follow it
     * @param seed         seeds the shuffles, so the same values and options give the same answer; default 1
     */
    public record Options(double pValue, int permutations, int minSize, long seed) {

        public Options {
            if (!(pValue > 0 && pValue < 1)) {
                throw new IllegalArgumentException("pValue must lie strictly between 0 and 1, not " + pValue);
            }
            if (permutations < 1) {
                throw new IllegalArgumentException("permutations must be at least 1, not " + permutations);
            }
            if (minSize < 2) {
                throw new IllegalArgumentException("minSize must be at least 2 values a side, not " + minSize);
            }
        }

        /** Significance 0.05, 999 shuffles, at least 3 values a side, seed 1. */
        public static Options defaults() {
            return new Options(0.05, 999, 3, 1);
        }

        /** These options at another significance level. */
        public Options withPValue(double value) {
            return new Options(value, permutations, minSize, seed);
        }

        /** These options with another number of shuffles per test. */
        public Options withPermutations(int value) {
            return new Options(pValue, value, minSize, seed);
        }

        /** These options with another fewest number of values on each side of a change. */
        public Options withMinSize(int value) {
            return new Options(pValue, permutations, value, seed);
        }

        /** These options with another seed for the shuffles. */
        public Options withSeed(long value) {
            return new Options(pValue, permutations, minSize, value);
        }
    }

    /**
     * A change in the series.
     *
     * @param index     the first value of the new level: the change lies between {@code values[index - 1]} and
     *                  {@code values[index]}
     * @param pValue    the permutation p-value at which it was kept: (shuffles with as large a q-hat + 1) /
     *                  (permutations + 1)
     * @param statistic q-hat of the cut, in the segment it split when it was found: how far apart the two sides'
     *                  distributions are (in the figure's unit), scaled by the sides' sizes
     */
    public record ChangePoint(int index, double pValue, double statistic) {
    }

    /** The best cut of one segment: the first index of its right side and its q-hat. */
    record Split(int index, double statistic) {
    }

    /** The change points of the series with the default {@link Options}. */
    public static List<ChangePoint> find(double[] values) {
        return find(values, Options.defaults());
    }

    /**
     * The change points of the series, sorted by index: none for a series shorter than {@code 2 * minSize} or with
     * every value equal.
     *
     * @param values one figure's values, oldest first; not changed
     * @throws IllegalArgumentException when a value is NaN or infinite
     */
    public static List<ChangePoint> find(double[] values, Options options) {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(options, "options");
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("value " + i + " is " + values[i] + ": change points need finite "
                        + "numbers");
            }
        }
        int n = values.length;
        int minSize = options.minSize();
        List<ChangePoint> found = new ArrayList<>();
        if (n < 2 * minSize) {
            return List.of();
        }
        SplittableRandom random = new SplittableRandom(options.seed());
        Scratch scratch = new Scratch(n);
        double[] shuffled = new double[n];
        TreeSet<Integer> bounds = new TreeSet<>(List.of(0, n));
        while (true) {
            Split candidate = bestOverSegments(values, bounds, minSize, scratch);
            if (candidate == null || !(candidate.statistic() > 0)) {
                break; // no segment can be cut, or every cut is flat (a constant series)
            }
            double p = permutationPValue(values, bounds, candidate.statistic(), options, random, scratch, shuffled);
            if (p > options.pValue()) {
                break;
            }
            found.add(new ChangePoint(candidate.index(), p, candidate.statistic()));
            bounds.add(candidate.index());
        }
        found.sort(Comparator.comparingInt(ChangePoint::index));
        return List.copyOf(found);
    }

    /**
     * q-hat of cutting the whole series before {@code values[index]}, straight from its definition: with X the values
     * before the cut (m of them) and Y the rest (k), E = 2·mean|x−y| − mean|x−x'| − mean|y−y'| (means over distinct
     * pairs), and q-hat = m·k/(m+k)·E. Larger when the two sides differ more; about zero or below when they are
     * alike.
     *
     * @throws IllegalArgumentException when either side would hold fewer than two values, or a value is not finite
     */
    public static double statistic(double[] values, int index) {
        Objects.requireNonNull(values, "values");
        if (index < 2 || index > values.length - 2) {
            throw new IllegalArgumentException("a cut at " + index + " of " + values.length + " values leaves fewer "
                    + "than 2 on a side");
        }
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("value " + i + " is " + values[i] + ": change points need finite "
                        + "numbers");
            }
        }
        double cross = 0;
        double withinX = 0;
        double withinY = 0;
        for (int i = 0; i < values.length; i++) {
            for (int j = i + 1; j < values.length; j++) {
                double d = Math.abs(values[i] - values[j]);
                if (j < index) {
                    withinX += d;
                } else if (i >= index) {
                    withinY += d;
                } else {
                    cross += d;
                }
            }
        }
        return q(index, values.length - index, cross, withinX, withinY);
    }

    /** q-hat from the sides' sizes and their sums of absolute differences (across, within X, within Y). */
    private static double q(int m, int k, double cross, double withinX, double withinY) {
        double dm = m;
        double dk = k;
        double e = 2 * cross / (dm * dk) - 2 * withinX / (dm * (dm - 1)) - 2 * withinY / (dk * (dk - 1));
        return dm * dk / (dm + dk) * e;
    }

    /** The largest best cut over the segments between consecutive bounds (ties: the smallest index), or null. */
    private static Split bestOverSegments(double[] z, TreeSet<Integer> bounds, int minSize, Scratch scratch) {
        Split best = null;
        Integer start = bounds.first();
        for (Integer end = bounds.higher(start); end != null; start = end, end = bounds.higher(end)) {
            Split s = bestSplit(z, start, end, minSize, scratch);
            if (s != null && (best == null || s.statistic() > best.statistic())) {
                best = s;
            }
        }
        return best;
    }

    /**
     * The cut of {@code z[start..end)} with the largest q-hat (ties: the smallest index), at least {@code minSize}
     * values from either end, or null when the segment is shorter than {@code 2 * minSize}. O(len²): each pair's
     * difference is taken once, then the sums for every cut come from running totals.
     */
    static Split bestSplit(double[] z, int start, int end, int minSize, Scratch scratch) {
        int len = end - start;
        if (len < 2 * minSize) {
            return null;
        }
        // left[t]: sum of |z_t - z_i| over start <= i < t; right[t]: over t < j < end (t relative to start).
        double[] left = scratch.left;
        double[] right = scratch.right;
        Arrays.fill(left, 0, len, 0);
        Arrays.fill(right, 0, len, 0);
        for (int i = 0; i < len; i++) {
            double zi = z[start + i];
            double sum = 0;
            for (int j = i + 1; j < len; j++) {
                double d = Math.abs(zi - z[start + j]);
                sum += d;
                left[j] += d;
            }
            right[i] = sum;
        }
        // withinY for a cut at t (relative) is the sum of right[u] over u >= t: accumulated from the end, so it is
        // never a difference of large sums.
        double[] suffix = scratch.suffix;
        suffix[len] = 0;
        for (int t = len - 1; t >= 0; t--) {
            suffix[t] = suffix[t + 1] + right[t];
        }
        double withinX = 0;      // pairs both before the cut
        double rightOfPrefix = 0; // sum of right[u] over u < t: pairs with the first element before the cut
        Split best = null;
        for (int t = 1; t <= len - minSize; t++) {
            withinX += left[t - 1];
            rightOfPrefix += right[t - 1];
            if (t < minSize) {
                continue;
            }
            double cross = rightOfPrefix - withinX;
            double q = q(t, len - t, cross, withinX, suffix[t]);
            if (best == null || q > best.statistic()) {
                best = new Split(start + t, q);
            }
        }
        return best;
    }

    /**
     * (shuffles whose largest q-hat over all segments is at least {@code observed}, + 1) / (permutations + 1), each
     * shuffle permuting the values within every current segment. Stops early, returning a value above the level,
     * once the count is too high for the candidate to be kept.
     */
    private static double permutationPValue(double[] values, TreeSet<Integer> bounds, double observed,
            Options options, SplittableRandom random, Scratch scratch, double[] shuffled) {
        System.arraycopy(values, 0, shuffled, 0, values.length);
        int r = options.permutations();
        double threshold = observed * (1 - TIE_TOLERANCE);
        int count = 0;
        for (int p = 0; p < r; p++) {
            double largest = Double.NEGATIVE_INFINITY;
            Integer start = bounds.first();
            for (Integer end = bounds.higher(start); end != null; start = end, end = bounds.higher(end)) {
                if (end - start < 2 * options.minSize()) {
                    continue; // cannot be cut; its order does not matter
                }
                shuffle(shuffled, start, end, random);
                Split s = bestSplit(shuffled, start, end, options.minSize(), scratch);
                largest = Math.max(largest, s.statistic());
            }
            if (largest >= threshold) {
                count++;
                if ((count + 1) / (double) (r + 1) > options.pValue()) {
                    return (count + 1) / (double) (r + 1); // cannot be kept whatever the remaining shuffles give
                }
            }
        }
        return (count + 1) / (double) (r + 1);
    }

    /** Fisher-Yates over {@code a[start..end)}. */
    private static void shuffle(double[] a, int start, int end, SplittableRandom random) {
        for (int i = end - 1; i > start; i--) {
            int j = start + random.nextInt(i - start + 1);
            double t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** Work arrays for {@link #bestSplit}, sized once per search. */
    static final class Scratch {
        final double[] left;
        final double[] right;
        final double[] suffix;

        Scratch(int n) {
            left = new double[n];
            right = new double[n];
            suffix = new double[n + 1];
        }
    }
}

package dev.gauntlet.rocksdb.dbbench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * db_bench's summary of repeated runs ({@code fillseq[X5]}): the mean of the runs' ops/sec and MB/s with a
 * 95% confidence interval (1.96 standard errors, sample standard deviation), and their medians. Printed as
 * <pre>
 * fillseq [AVG    5 runs] : 246689 (± 1234) ops/sec;   27.3 (± 0.1) MB/sec
 * fillseq [MEDIAN 5 runs] : 246000 ops/sec;   27.2 MB/sec
 * </pre>
 * The printed figures are truncated to integers where db_bench truncates them.
 */
public record RepeatSummary(String name, int runs, double meanOps, double ci95Ops, double meanMb, double ci95Mb,
                            double medianOps, double medianMb) {

    private static final Pattern AVG = Pattern.compile(
            "^(\\S+) \\[AVG\\s+(\\d+) runs\\] : (\\d+) \\(\u00b1 (\\d+)\\) ops/sec;\\s*(\\d+(?:\\.\\d+)?) \\(\u00b1 (\\d+(?:\\.\\d+)?)\\) MB/sec$");
    private static final Pattern MEDIAN = Pattern.compile(
            "^(\\S+) \\[MEDIAN (\\d+) runs\\] : (\\d+) ops/sec;\\s*(\\d+(?:\\.\\d+)?) MB/sec$");
    /** db_bench's z for the 97.5th percentile. */
    private static final double Z = 1.959964;

    public static RepeatSummary of(List<RunLine> lines) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no runs to summarize");
        }
        List<Double> ops = new ArrayList<>();
        List<Double> mb = new ArrayList<>();
        for (RunLine l : lines) {
            // The printed (truncated) rate is within 1 op/s of db_bench's unrounded one; operations over the
            // printed seconds would not be (seconds are rounded to milliseconds).
            ops.add((double) l.opsPerSecond());
            mb.add(l.mbPerSecond());
        }
        return new RepeatSummary(lines.get(0).name(), lines.size(), mean(ops), ci95(ops), mean(mb), ci95(mb),
                median(ops), median(mb));
    }

    static double mean(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** 1.96 x sample standard deviation / sqrt(n); 0 for a single run (db_bench prints no summary then). */
    static double ci95(List<Double> xs) {
        if (xs.size() < 2) {
            return 0;
        }
        double m = mean(xs);
        double squares = xs.stream().mapToDouble(x -> (x - m) * (x - m)).sum();
        return Z * Math.sqrt(squares / (xs.size() - 1)) / Math.sqrt(xs.size());
    }

    static double median(List<Double> xs) {
        List<Double> sorted = new ArrayList<>(xs);
        Collections.sort(sorted);
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }

    public String formatAverage() {
        return String.format(Locale.ROOT, "%s [AVG    %d runs] : %d (\u00b1 %d) ops/sec; %6.1f (\u00b1 %.1f) MB/sec",
                name, runs, (int) meanOps, (int) ci95Ops, meanMb, ci95Mb);
    }

    public String formatMedian() {
        return String.format(Locale.ROOT, "%s [MEDIAN %d runs] : %d ops/sec; %6.1f MB/sec", name, runs,
                (int) medianOps, medianMb);
    }

    /**
     * Reads the AVG and MEDIAN lines of one benchmark back (at the precision they are printed with), or empty
     * when either is missing.
     */
    public static Optional<RepeatSummary> parse(String avgLine, String medianLine) {
        Matcher a = AVG.matcher(avgLine.strip());
        Matcher m = MEDIAN.matcher(medianLine.strip());
        if (!a.matches() || !m.matches() || !a.group(1).equals(m.group(1)) || !a.group(2).equals(m.group(2))) {
            return Optional.empty();
        }
        return Optional.of(new RepeatSummary(a.group(1), Integer.parseInt(a.group(2)), Double.parseDouble(a.group(3)),
                Double.parseDouble(a.group(4)), Double.parseDouble(a.group(5)), Double.parseDouble(a.group(6)),
                Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))));
    }

    /** True for db_bench's final {@code [AVG    N runs]} line (and its interim {@code [AVG N runs]} lines). */
    public static boolean isAverageLine(String line) {
        return AVG.matcher(line.strip()).matches();
    }

    public static boolean isMedianLine(String line) {
        return MEDIAN.matcher(line.strip()).matches();
    }
}

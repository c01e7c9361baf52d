package dev.gauntlet.core.report;

import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Sides compared with a baseline, in the shape of a side-by-side A/B table ({@code | Metric | A | B | Change | 95% CI |
 * Winner |}) followed by a verdict computed from the figures. A side is one run or the repeated runs of one variant.
 * The first side is the baseline; with more than two, each other side gets its own section against that baseline,
 * so every change reads "relative to the first". How winners, Equal and inconclusive are judged: {@link Delta}.
 */
public final class Comparison {

    /**
     * The smallest change that matters, in percent: a winner needs a change at least this large, and Equal needs the
     * whole confidence interval within ± this. Run-to-run noise on a shared 2-core box is often that large.
     */
    public static final double DEFAULT_THRESHOLD_PERCENT = 5.0;

    private final List<RunGroup> sides;
    private final double threshold;
    private final List<PairComparison> pairs;

    private Comparison(List<RunGroup> sides, double threshold, List<PairComparison> pairs) {
        this.sides = sides;
        this.threshold = threshold;
        this.pairs = pairs;
    }

    /** Compares runs labelled by their variant (see {@link LabelledRun#of}), one run per side; the first is the baseline. */
    public static Comparison compare(List<RunResult> runs, double noiseThresholdPercent) {
        return compareLabelled(runs.stream().map(r -> LabelledRun.of(r, null)).toList(), noiseThresholdPercent);
    }

    /** Compares named runs, one per side; the first is the baseline. Duplicate labels are made unique. */
    public static Comparison compareLabelled(List<LabelledRun> runs, double noiseThresholdPercent) {
        return compareGroups(LabelledRun.distinct(runs).stream().map(RunGroup::of).toList(), noiseThresholdPercent);
    }

    /** Compares sides of one or more runs each; the first is the baseline. */
    public static Comparison compareGroups(List<RunGroup> sides, double noiseThresholdPercent) {
        if (sides.size() < 2) {
            throw new IllegalArgumentException("a comparison needs at least two sides, got " + sides.size());
        }
        if (!(noiseThresholdPercent >= 0) || Double.isInfinite(noiseThresholdPercent)) {
            throw new IllegalArgumentException("noise threshold must be a percentage >= 0, got "
                    + noiseThresholdPercent);
        }
        java.util.Set<String> labels = new java.util.HashSet<>();
        for (RunGroup g : sides) {
            if (!labels.add(g.label())) {
                throw new IllegalArgumentException("two sides are both called " + g.label()
                        + "; give each side its own label");
            }
        }
        List<PairComparison> pairs = new ArrayList<>();
        for (RunGroup other : sides.subList(1, sides.size())) {
            pairs.add(PairComparison.of(sides.get(0), other, noiseThresholdPercent));
        }
        return new Comparison(List.copyOf(sides), noiseThresholdPercent, List.copyOf(pairs));
    }

    public List<RunGroup> sides() {
        return sides;
    }

    public double thresholdPercent() {
        return threshold;
    }

    /** One comparison per non-baseline side, in input order. */
    public List<PairComparison> pairs() {
        return pairs;
    }

    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Comparison: ").append(sides.stream().map(r -> "`" + r.label() + "`")
                .collect(Collectors.joining(" vs "))).append("\n\n");
        MarkdownTable t = new MarkdownTable().left("Side", "Label").right("Runs").left("Workload", "Variant", "Started")
                .right("Measured", "Clients").left("Source");
        for (int i = 0; i < sides.size(); i++) {
            RunGroup g = sides.get(i);
            RunResult res = g.first();
            t.row(letter(i) + (i == 0 ? " (baseline)" : ""), g.label(), String.valueOf(g.size()),
                    Figures.orDash(res.workload()), Figures.orDash(res.variant()), Figures.orDash(res.startedAt()),
                    Figures.seconds(res.measuredSeconds()), String.valueOf(res.clients()), Figures.orDash(g.source()));
        }
        md.append(t.render()).append('\n');
        md.append(method()).append("\n\n");
        for (PairComparison p : pairs) {
            md.append(p.markdown());
        }
        return md.toString().stripTrailing() + "\n";
    }

    /** How the table was made and how a winner is judged, so a reader can weigh it. */
    private String method() {
        String t = Figures.threshold(threshold);
        StringBuilder m = new StringBuilder("**Method.** Change is relative to the baseline `")
                .append(sides.get(0).label()).append("` (▲ higher, ▼ lower). Each side's figures come from all its "
                        + "runs together: latency percentiles from their summed HdrHistograms (never averaged), "
                        + "throughput as all operations over all measured time, workload metrics, errors and retries "
                        + "as the mean per run. Latency is measured from each operation's intended start. ");
        if (pairs.stream().anyMatch(PairComparison::repeated)) {
            m.append("The 95% CI column is the confidence interval of the difference of the per-run means (Welch's "
                    + "t interval), relative to the baseline's mean. A side is named the winner when that interval "
                    + "excludes zero and the change is at least the ").append(t).append(" threshold. A figure is "
                    + "Equal only when its whole interval lies within ±").append(t).append(" (an equivalence test): "
                    + "an interval that merely spans zero shows nothing. \"real, below ").append(t).append("\" marks "
                    + "an interval that excludes zero around a change smaller than the threshold: a difference, too "
                    + "small to name a winner, and not shown to be within ±").append(t).append(" either. Any other "
                    + "figure is inconclusive, with the runs per side that would decide it at the spread observed: "
                    + "the fewest n for which the half-width t(0.975, df) × √((s_A² + s_B²)/n), with s_A and s_B "
                    + "each side's per-run standard deviation and Welch's df, would either exclude zero around the "
                    + "observed difference of the per-run means (when the change passes the threshold) or fit the "
                    + "interval within ±").append(t).append(". It assumes the spread and the difference stay as "
                    + "observed. \"More runs alone would not decide it\" marks a change below the threshold whose "
                    + "per-run means differ by more than it (a pooled percentile and the runs' own can disagree): "
                    + "no interval around that difference names a winner or fits within ±").append(t).append(". ");
        }
        if (sides.stream().anyMatch(g -> g.size() < 2)) {
            m.append("With one run on a side there is no spread and no interval, so nothing is shown either way: "
                    + "every judged figure against that side is inconclusive, whatever its change, one below the ")
                    .append(t).append(" threshold included. Repeat each variant (`--repeat N`, run A B A B) to get "
                    + "confidence intervals. ");
        }
        m.append("Figures declared neither better higher nor lower are shown but not judged (—).");
        return m.toString();
    }

    private static String letter(int i) {
        return i < 26 ? String.valueOf((char) ('A' + i)) : "R" + (i + 1);
    }
}

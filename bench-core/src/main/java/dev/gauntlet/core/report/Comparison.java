package dev.gauntlet.core.report;

import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Sides compared with a baseline, in the shape of a side-by-side A/B table ({@code | Metric | A | B | Change | 95% CI |
 * Winner |}) followed by a verdict computed from the figures. A side is one run or the repeated runs of one variant.
 * The first side is the baseline; with more than two, each other side gets its own section against that baseline,
 * so every change reads "relative to the first". How winners are judged: {@link Delta}.
 */
public final class Comparison {

    /** Changes smaller than this are called Equal: run-to-run noise on a shared 2-core box is often that large. */
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
        boolean repeated = sides.stream().allMatch(g -> g.size() >= 2);
        StringBuilder m = new StringBuilder("**Method.** Change is relative to the baseline `")
                .append(sides.get(0).label()).append("` (▲ higher, ▼ lower). Each side's figures come from all its "
                        + "runs together: latency percentiles from their summed HdrHistograms (never averaged), "
                        + "throughput as all operations over all measured time, workload metrics, errors and retries "
                        + "as the mean per run. Latency is measured from each operation's intended start. ");
        if (repeated) {
            m.append("The 95% CI column is the confidence interval of the difference of the per-run means (Welch's "
                    + "t interval), relative to the baseline's mean. A figure is Equal when that interval spans zero "
                    + "or the change is below the ").append(Figures.threshold(threshold))
                    .append(" noise threshold; otherwise the better side is named.");
        } else {
            m.append("With one run on a side there is no spread to judge by: a change below the ")
                    .append(Figures.threshold(threshold)).append(" noise threshold is called Equal, a larger one is "
                            + "reported as \"").append(PairComparison.NO_CONFIDENCE).append("\" and no winner is "
                            + "named. Repeat each variant (`--repeat N`, run A B A B) to get confidence intervals.");
        }
        m.append(" Figures declared neither better higher nor lower are shown but not judged (—).");
        return m.toString();
    }

    private static String letter(int i) {
        return i < 26 ? String.valueOf((char) ('A' + i)) : "R" + (i + 1);
    }
}

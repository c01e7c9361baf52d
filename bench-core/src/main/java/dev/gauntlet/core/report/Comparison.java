package dev.gauntlet.core.report;

import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs compared with a baseline, in the shape of a side-by-side A/B table ({@code | Metric | A | B | Change |
 * Winner |}) followed by a verdict computed from the figures. The first run is the baseline; with more than two,
 * each other run gets its own section against that baseline, so every change reads "relative to the first".
 */
public final class Comparison {

    /** Changes smaller than this are called Equal: run-to-run noise on a shared 2-core box is often that large. */
    public static final double DEFAULT_THRESHOLD_PERCENT = 5.0;

    private final List<LabelledRun> runs;
    private final double threshold;
    private final List<PairComparison> pairs;

    private Comparison(List<LabelledRun> runs, double threshold, List<PairComparison> pairs) {
        this.runs = runs;
        this.threshold = threshold;
        this.pairs = pairs;
    }

    /** Compares runs labelled by their variant (see {@link LabelledRun#of}); the first is the baseline. */
    public static Comparison compare(List<RunResult> runs, double noiseThresholdPercent) {
        return compareLabelled(runs.stream().map(r -> LabelledRun.of(r, null)).toList(), noiseThresholdPercent);
    }

    /** Compares named runs; the first is the baseline. Duplicate labels are made unique. */
    public static Comparison compareLabelled(List<LabelledRun> runs, double noiseThresholdPercent) {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("a comparison needs at least two runs, got " + runs.size());
        }
        if (!(noiseThresholdPercent >= 0) || Double.isInfinite(noiseThresholdPercent)) {
            throw new IllegalArgumentException("noise threshold must be a percentage >= 0, got "
                    + noiseThresholdPercent);
        }
        List<LabelledRun> named = LabelledRun.distinct(runs);
        List<PairComparison> pairs = new ArrayList<>();
        for (LabelledRun other : named.subList(1, named.size())) {
            pairs.add(PairComparison.of(named.get(0), other, noiseThresholdPercent));
        }
        return new Comparison(List.copyOf(named), noiseThresholdPercent, List.copyOf(pairs));
    }

    public List<LabelledRun> runs() {
        return runs;
    }

    public double thresholdPercent() {
        return threshold;
    }

    /** One comparison per non-baseline run, in input order. */
    public List<PairComparison> pairs() {
        return pairs;
    }

    public String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Comparison: ").append(runs.stream().map(r -> "`" + r.label() + "`")
                .collect(Collectors.joining(" vs "))).append("\n\n");
        MarkdownTable t = new MarkdownTable().left("Run", "Label", "Workload", "Variant", "Started")
                .right("Measured", "Clients").left("Source");
        for (int i = 0; i < runs.size(); i++) {
            LabelledRun r = runs.get(i);
            RunResult res = r.result();
            t.row(letter(i) + (i == 0 ? " (baseline)" : ""), r.label(), Figures.orDash(res.workload()),
                    Figures.orDash(res.variant()), Figures.orDash(res.startedAt()),
                    Figures.seconds(res.measuredSeconds()), String.valueOf(res.clients()), Figures.orDash(r.source()));
        }
        md.append(t.render()).append('\n');
        md.append("Change is relative to the baseline `").append(runs.get(0).label()).append("` (▲ higher, ▼ lower). ")
                .append("Differences smaller than the ").append(Figures.threshold(threshold))
                .append(" noise threshold are called Equal, because run-to-run noise is often that large. ")
                .append("Latency is measured from each operation's intended start; the whole-run figures come from ")
                .append("histograms summed over all operations, never from averaged percentiles.\n\n");
        for (PairComparison p : pairs) {
            md.append(p.markdown());
        }
        return md.toString().stripTrailing() + "\n";
    }

    private static String letter(int i) {
        return i < 26 ? String.valueOf((char) ('A' + i)) : "R" + (i + 1);
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.report.Delta.Outcome;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.Check;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The paragraph under a comparison table. Every clause is computed from the figures (which run, by how much,
 * beyond or within the noise threshold), so the verdict can never say more than the table supports.
 */
final class Verdict {

    private final PairComparison pair;
    private final double threshold;

    Verdict(PairComparison pair) {
        this.pair = pair;
        this.threshold = pair.thresholdPercent();
    }

    String paragraph() {
        List<String> sentences = new ArrayList<>();
        sentences.add(throughputSentence());
        sentences.add(latencySentence());
        if (!pair.perOperation().isEmpty()) {
            sentences.add(perOperationSentence());
        }
        String metrics = metricsSentence();
        if (!metrics.isEmpty()) {
            sentences.add(metrics);
        }
        sentences.add(errorsSentence());
        sentences.add(checksSentence());
        sentences.add(tallySentence());
        return String.join(" ", sentences);
    }

    private String b() {
        return "`" + pair.other().label() + "`";
    }

    private String a() {
        return "`" + pair.baseline().label() + "`";
    }

    private String throughputSentence() {
        Delta tp = pair.delta(PairComparison.THROUGHPUT).orElseThrow();
        Delta p99 = pair.delta(PairComparison.P99).orElseThrow();
        String values = " (" + tp.unit().format(tp.b()) + " vs " + tp.unit().format(tp.a()) + ")";
        String first;
        if (tp.outcome(threshold) == Outcome.EQUAL) {
            first = "Throughput is equal within the " + Figures.threshold(threshold) + " noise threshold ("
                    + b() + " " + tp.unit().format(tp.b()) + " vs " + a() + " " + tp.unit().format(tp.a()) + ", "
                    + Figures.signedPercent(tp.changePercent()) + ")";
        } else {
            first = b() + " is " + change(tp, "faster", "slower") + " in throughput than " + a() + values;
        }
        String latency;
        if (p99.outcome(threshold) == Outcome.EQUAL) {
            latency = ", with p99 latency within the threshold (" + Figures.signedPercent(p99.changePercent())
                    + ")";
        } else {
            latency = ", with " + change(p99, "higher", "lower") + " p99 latency (" + p99.unit().format(p99.b())
                    + " vs " + p99.unit().format(p99.a()) + ")";
        }
        return first + latency + ".";
    }

    /** "12.3% higher" or "12.3% lower"; from a zero baseline the percentage is meaningless and omitted. */
    private static String change(Delta d, String up, String down) {
        String word = d.b() > d.a() ? up : down;
        double pct = d.changePercent();
        return Double.isNaN(pct) ? word + " (from zero)" : Figures.percent(pct) + " " + word;
    }

    private String latencySentence() {
        String subject = "Latency (all operations)";
        List<String> beyond = new ArrayList<>();
        List<String> within = new ArrayList<>();
        for (Delta d : pair.headline()) {
            if (!PairComparison.isLatency(d.metric())) {
                continue;
            }
            String name = shortName(d.metric());
            if (d.outcome(threshold) == Outcome.EQUAL) {
                within.add(name);
            } else {
                beyond.add(name + " " + change(d, "higher", "lower") + " in " + b() + " (" + d.unit().format(d.b())
                        + " vs " + d.unit().format(d.a()) + ")");
            }
        }
        if (beyond.isEmpty()) {
            return subject + ": no figure (mean, p50, p95, p99, max) differs by more than the "
                    + Figures.threshold(threshold) + " noise threshold.";
        }
        return subject + " beyond the " + Figures.threshold(threshold) + " noise threshold: "
                + String.join(", ", beyond) + (within.isEmpty() ? "" : "; within it: " + String.join(", ", within))
                + ".";
    }

    private static String shortName(String latencyMetric) {
        return latencyMetric.replace(" latency", "").replace("Mean", "mean").replace("Max", "max");
    }

    private String perOperationSentence() {
        List<String> moved = new ArrayList<>();
        pair.perOperation().forEach((op, rows) -> rows.stream()
                .filter(d -> d.metric().equals(PairComparison.P99) && d.outcome(threshold) != Outcome.EQUAL).findFirst()
                .ifPresent(d -> moved.add(op + " " + d.changeText().replace("▲ ", "").replace("▼ ", ""))));
        if (moved.isEmpty()) {
            return "Per operation, no p99 moved beyond the threshold.";
        }
        return "Per operation, p99 moved beyond the threshold for " + String.join(", ", moved) + ".";
    }

    private String metricsSentence() {
        List<String> parts = pair.headline().stream()
                .filter(d -> d.unit() == Unit.NUMBER)
                .map(d -> d.metric() + " " + d.changeText().replace("▲ ", "").replace("▼ ", "") + " ("
                        + (d.outcome(threshold) == Outcome.EQUAL ? "equal" : "`" + pair.winner(d) + "` better") + ")")
                .collect(Collectors.toList());
        return parts.isEmpty() ? "" : "Workload metrics: " + String.join(", ", parts) + ".";
    }

    private String errorsSentence() {
        Delta errors = pair.delta(PairComparison.ERRORS).orElseThrow();
        Delta retries = pair.delta(PairComparison.RETRIES).orElseThrow();
        String s;
        if (errors.a() == 0 && errors.b() == 0) {
            s = "Neither run had errors";
        } else {
            s = "Errors: " + errors.unit().format(errors.a()) + " in " + a() + ", " + errors.unit().format(errors.b())
                    + " in " + b() + (errors.outcome(threshold) == Outcome.EQUAL ? " (equal within the threshold)"
                    : " (`" + pair.winner(errors) + "` fewer)");
        }
        if (retries.a() != 0 || retries.b() != 0) {
            s += "; retries: " + retries.unit().format(retries.a()) + " vs " + retries.unit().format(retries.b());
        }
        return s + ".";
    }

    private String checksSentence() {
        Check.Status sa = pair.baseline().result().checkStatus();
        Check.Status sb = pair.other().result().checkStatus();
        if (sa == null && sb == null) {
            return "No checks ran in either run.";
        }
        if (sa == null || sb == null) {
            LabelledRun ran = sa == null ? pair.other() : pair.baseline();
            return "Checks ran only in `" + ran.label() + "` (" + ran.result().checkStatus() + ").";
        }
        if (sa == Check.Status.PASS && sb == Check.Status.PASS) {
            return "Checks passed in both runs.";
        }
        List<String> failed = new ArrayList<>();
        if (sa == Check.Status.FAIL) {
            failed.add(a());
        }
        if (sb == Check.Status.FAIL) {
            failed.add(b());
        }
        return "Checks FAILED in " + String.join(" and ", failed)
                + ": do not trust those figures until the failed checks are explained.";
    }

    private String tallySentence() {
        Map<Outcome, Long> tally = new TreeMap<>();
        pair.headline().forEach(d -> tally.merge(d.outcome(threshold), 1L, Long::sum));
        return "Of " + pair.headline().size() + " whole-run figures, " + b() + " is better on "
                + tally.getOrDefault(Outcome.OTHER_BETTER, 0L) + ", worse on "
                + tally.getOrDefault(Outcome.BASELINE_BETTER, 0L) + " and equal on "
                + tally.getOrDefault(Outcome.EQUAL, 0L) + ".";
    }
}

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
 * The paragraph under a comparison table. Every clause is computed from the figures (which side, by how much,
 * whether the difference is beyond the noise threshold and its confidence interval), so the verdict can never say
 * more than the table supports.
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
        String saturation = saturationSentence();
        if (!saturation.isEmpty()) {
            sentences.add(saturation);
        }
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

    /** An open-loop side that could not keep its rate measured less than its clients would have waited. */
    private String saturationSentence() {
        Map<String, dev.gauntlet.core.result.Saturation> saturated = pair.saturated();
        if (saturated.isEmpty()) {
            return "";
        }
        return saturated.entrySet().stream()
                .map(e -> "`" + e.getKey() + "` was saturated (achieved " + Figures.rate(e.getValue().achievedOpsPerSecond())
                        + " of " + Figures.rate(e.getValue().targetOpsPerSecond()) + " ops/s asked, "
                        + Figures.count(e.getValue().unissued()) + " operations never issued)")
                .collect(Collectors.joining("; ")) + ": its latency understates the backlog, so latency comparisons "
                + "with it do not say how the variants behave at the asked rate.";
    }

    private String throughputSentence() {
        Delta tp = pair.delta(PairComparison.THROUGHPUT).orElseThrow();
        Delta p99 = pair.delta(PairComparison.P99).orElseThrow();
        String values = " (" + tp.unit().format(tp.b()) + " vs " + tp.unit().format(tp.a()) + ci(tp) + ")";
        String first = switch (tp.outcome(threshold)) {
            case EQUAL -> "Throughput is equal (" + b() + " " + tp.unit().format(tp.b()) + " vs " + a() + " "
                    + tp.unit().format(tp.a()) + ", " + Figures.signedPercent(tp.changePercent()) + ci(tp) + "; "
                    + equalReason(tp) + ")";
            case NO_CONFIDENCE -> b() + " measured " + change(tp, "higher", "lower") + " throughput than " + a()
                    + values + ", but with one run each there is no confidence in it";
            default -> b() + " is " + change(tp, "faster", "slower") + " in throughput than " + a() + values;
        };
        String latency = switch (p99.outcome(threshold)) {
            case EQUAL -> ", with equal p99 latency (" + Figures.signedPercent(p99.changePercent()) + ")";
            case NO_CONFIDENCE -> ", with " + change(p99, "higher", "lower") + " p99 latency (" + p99.unit().format(p99.b())
                    + " vs " + p99.unit().format(p99.a()) + ", no confidence)";
            default -> ", with " + change(p99, "higher", "lower") + " p99 latency (" + p99.unit().format(p99.b())
                    + " vs " + p99.unit().format(p99.a()) + ")";
        };
        return first + latency + ".";
    }

    private String equalReason(Delta d) {
        return d.repeated() && Math.abs(d.changePercent()) >= threshold ? "the 95% interval spans zero"
                : "within the " + Figures.threshold(threshold) + " noise threshold";
    }

    private static String ci(Delta d) {
        return d.repeated() ? ", 95% CI " + d.confidenceText() : "";
    }

    /** "12.3% higher" or "12.3% lower"; from a zero baseline the percentage is meaningless and omitted. */
    private static String change(Delta d, String up, String down) {
        String word = d.b() > d.a() ? up : down;
        double pct = d.changePercent();
        return Double.isNaN(pct) ? word + " (from zero)" : Figures.percent(pct) + " " + word;
    }

    private String latencySentence() {
        String subject = "Latency (all operations)";
        List<String> decided = new ArrayList<>();
        List<String> unsure = new ArrayList<>();
        for (Delta d : pair.headline()) {
            if (!PairComparison.isLatency(d.metric())) {
                continue;
            }
            String name = shortName(d.metric());
            String text = name + " " + change(d, "higher", "lower") + " in " + b() + " (" + d.unit().format(d.b())
                    + " vs " + d.unit().format(d.a()) + ")";
            Outcome o = d.outcome(threshold);
            if (PairComparison.decided(o)) {
                decided.add(text);
            } else if (o == Outcome.NO_CONFIDENCE) {
                unsure.add(text);
            }
        }
        if (decided.isEmpty() && unsure.isEmpty()) {
            return subject + ": no figure (mean, p50, p95, p99, max) differs beyond the " + Figures.threshold(threshold)
                    + " noise threshold" + (pairRepeated() ? " and its 95% interval." : ".");
        }
        StringBuilder s = new StringBuilder(subject);
        if (!decided.isEmpty()) {
            s.append(" differs: ").append(String.join(", ", decided));
        }
        if (!unsure.isEmpty()) {
            s.append(decided.isEmpty() ? " " : "; ").append("beyond the ").append(Figures.threshold(threshold))
                    .append(" threshold but without confidence (one run each): ").append(String.join(", ", unsure));
        }
        return s.append('.').toString();
    }

    private boolean pairRepeated() {
        return pair.baseline().size() >= 2 && pair.other().size() >= 2;
    }

    private static String shortName(String latencyMetric) {
        return latencyMetric.replace(" latency", "").replace("Mean", "mean").replace("Max", "max");
    }

    private String perOperationSentence() {
        List<String> moved = new ArrayList<>();
        List<String> unsure = new ArrayList<>();
        pair.perOperation().forEach((op, rows) -> rows.stream()
                .filter(d -> d.metric().equals(PairComparison.P99)).findFirst().ifPresent(d -> {
                    String text = op + " " + d.changeText().replace("▲ ", "").replace("▼ ", "");
                    Outcome o = d.outcome(threshold);
                    if (PairComparison.decided(o)) {
                        moved.add(text);
                    } else if (o == Outcome.NO_CONFIDENCE) {
                        unsure.add(text);
                    }
                }));
        if (moved.isEmpty() && unsure.isEmpty()) {
            return "Per operation, no p99 moved beyond the threshold.";
        }
        List<String> parts = new ArrayList<>();
        if (!moved.isEmpty()) {
            parts.add("p99 moved for " + String.join(", ", moved));
        }
        if (!unsure.isEmpty()) {
            parts.add("p99 changed beyond the threshold, without confidence, for " + String.join(", ", unsure));
        }
        return "Per operation, " + String.join("; ", parts) + ".";
    }

    private String metricsSentence() {
        List<String> parts = pair.headline().stream()
                .filter(d -> d.unit() == Unit.NUMBER)
                .map(d -> d.metric() + " " + d.changeText().replace("▲ ", "").replace("▼ ", "") + " ("
                        + judgement(d) + ")")
                .collect(Collectors.toList());
        return parts.isEmpty() ? "" : "Workload metrics: " + String.join(", ", parts) + ".";
    }

    private String judgement(Delta d) {
        return switch (d.outcome(threshold)) {
            case EQUAL -> "equal";
            case NO_CONFIDENCE -> "no confidence";
            case NOT_JUDGED -> "not judged";
            default -> "`" + pair.winner(d) + "` better";
        };
    }

    private String errorsSentence() {
        Delta errors = pair.delta(PairComparison.ERRORS).orElseThrow();
        Delta retries = pair.delta(PairComparison.RETRIES).orElseThrow();
        String s;
        if (errors.a() == 0 && errors.b() == 0) {
            s = "Neither side had errors";
        } else {
            String per = pairRepeated() ? " per run" : "";
            s = "Errors" + per + ": " + errors.unit().format(errors.a()) + " in " + a() + ", "
                    + errors.unit().format(errors.b()) + " in " + b() + " (" + switch (errors.outcome(threshold)) {
                        case EQUAL -> "equal";
                        case NO_CONFIDENCE -> "one run each: no confidence";
                        case NOT_JUDGED -> "not judged";
                        default -> "`" + pair.winner(errors) + "` fewer";
                    } + ")";
        }
        if (retries.a() != 0 || retries.b() != 0) {
            s += "; retries: " + retries.unit().format(retries.a()) + " vs " + retries.unit().format(retries.b());
        }
        return s + ".";
    }

    private String checksSentence() {
        Check.Status sa = PairComparison.status(pair.baseline());
        Check.Status sb = PairComparison.status(pair.other());
        if (sa == null && sb == null) {
            return "No checks ran on either side.";
        }
        if (sa == null || sb == null) {
            RunGroup ran = sa == null ? pair.other() : pair.baseline();
            return "Checks ran only in `" + ran.label() + "` (" + PairComparison.status(ran) + ").";
        }
        if (sa == Check.Status.PASS && sb == Check.Status.PASS) {
            return "Checks passed on both sides.";
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
        String s = "Of " + pair.headline().size() + " whole-run figures, " + b() + " is better on "
                + tally.getOrDefault(Outcome.OTHER_BETTER, 0L) + ", worse on "
                + tally.getOrDefault(Outcome.BASELINE_BETTER, 0L) + " and equal on "
                + tally.getOrDefault(Outcome.EQUAL, 0L);
        long unsure = tally.getOrDefault(Outcome.NO_CONFIDENCE, 0L);
        long unjudged = tally.getOrDefault(Outcome.NOT_JUDGED, 0L);
        if (unsure > 0) {
            s += "; " + unsure + " differ without confidence (one run each)";
        }
        if (unjudged > 0) {
            s += "; " + unjudged + " not judged";
        }
        return s + ".";
    }
}

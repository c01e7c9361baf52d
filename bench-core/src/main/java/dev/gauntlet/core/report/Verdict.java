package dev.gauntlet.core.report;

import dev.gauntlet.core.report.Delta.Outcome;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.Check;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The paragraph under a comparison table. Every clause is computed from the figures (which side, by how much, and
 * what the row's confidence interval shows against the threshold, judged once by {@link Delta#outcome}), so the
 * verdict can never say more than the table supports: it names a difference only where the table names a winner,
 * calls a figure equal only where the table says Equal, and says inconclusive, with the runs per side that would
 * decide it, where the table does.
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
                    + tp.unit().format(tp.a()) + ", " + Figures.signedPercent(tp.changePercent()) + ci(tp)
                    + ", within ±" + Figures.threshold(threshold) + ")";
            case BELOW_THRESHOLD -> b() + " measured " + change(tp, "higher", "lower") + " throughput than " + a()
                    + " (" + tp.unit().format(tp.b()) + " vs " + tp.unit().format(tp.a()) + ci(tp) + "; a real "
                    + "difference, but below the " + Figures.threshold(threshold) + " threshold)";
            case INCONCLUSIVE -> "Throughput is inconclusive (" + b() + " " + change(tp, "higher", "lower") + " than "
                    + a() + ": " + tp.unit().format(tp.b()) + " vs " + tp.unit().format(tp.a()) + ci(tp)
                    + ", an interval that spans zero and reaches beyond ±" + Figures.threshold(threshold) + "; "
                    + pair.runsToDecide(tp) + " would decide it at the spread observed)";
            case NO_INTERVAL -> "With " + pair.oneRun() + " there is no interval, so nothing is shown either way: "
                    + b() + " measured " + change(tp, "higher", "lower") + " throughput than " + a() + values;
            default -> b() + " is " + change(tp, "faster", "slower") + " in throughput than " + a() + values;
        };
        String p99Values = p99.unit().format(p99.b()) + " vs " + p99.unit().format(p99.a());
        String latency = switch (p99.outcome(threshold)) {
            case EQUAL -> ", with equal p99 latency (" + Figures.signedPercent(p99.changePercent()) + ", within ±"
                    + Figures.threshold(threshold) + ")";
            case BELOW_THRESHOLD -> ", with " + change(p99, "higher", "lower") + " p99 latency (" + p99Values
                    + "; real, below the " + Figures.threshold(threshold) + " threshold)";
            case INCONCLUSIVE -> ", with p99 latency inconclusive (" + change(p99, "higher", "lower") + ", "
                    + p99Values + "; " + pair.runsToDecide(p99) + ")";
            default -> ", with " + change(p99, "higher", "lower") + " p99 latency (" + p99Values + ")";
        };
        return first + latency + ".";
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
        List<Mention> mentions = new ArrayList<>();
        for (Delta d : pair.headline()) {
            if (PairComparison.isLatency(d.metric())) {
                String moved = d.a() == d.b() ? " unchanged" : " " + change(d, "higher", "lower") + " in " + b();
                mentions.add(new Mention(shortName(d.metric()) + moved,
                        d.unit().format(d.b()) + " vs " + d.unit().format(d.a()), d));
            }
        }
        return "Latency (all operations): " + clauses(mentions) + ".";
    }

    private static String shortName(String latencyMetric) {
        return latencyMetric.replace(" latency", "").replace("Mean", "mean").replace("Max", "max");
    }

    private String perOperationSentence() {
        List<Mention> mentions = new ArrayList<>();
        pair.perOperation().forEach((op, rows) -> rows.stream()
                .filter(d -> d.metric().equals(PairComparison.P99)).findFirst()
                .ifPresent(d -> mentions.add(new Mention(op + " " + d.changeText().replace("▲ ", "")
                        .replace("▼ ", ""), "", d))));
        return "Per operation, p99 " + clauses(mentions) + ".";
    }

    /** A figure named in a sentence: what it is called, the values in brackets after it (or none), its row. */
    private record Mention(String name, String values, Delta delta) {
    }

    /** The order in which {@link #clauses} names the groups; a winner of either side counts as "differs". */
    private static final List<Outcome> CLAUSE_ORDER = List.of(Outcome.OTHER_BETTER, Outcome.BELOW_THRESHOLD,
            Outcome.EQUAL, Outcome.INCONCLUSIVE, Outcome.NO_INTERVAL);

    /**
     * The figures grouped by what they show, e.g. "differs for a, b; inconclusive for c (~9 runs per side)": winners
     * first, then real but below the threshold, equal, inconclusive and without an interval. Unjudged figures are
     * left out.
     */
    private String clauses(List<Mention> mentions) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        CLAUSE_ORDER.forEach(o -> groups.put(group(o), new ArrayList<>()));
        for (Mention m : mentions) {
            Outcome o = m.delta().outcome(threshold);
            if (o == Outcome.NOT_JUDGED) {
                continue;
            }
            List<String> brackets = new ArrayList<>();
            if (!m.values().isEmpty()) {
                brackets.add(m.values());
            }
            if (o == Outcome.INCONCLUSIVE) {
                brackets.add(pair.runsToDecide(m.delta()));
            }
            groups.get(group(o)).add(m.name() + (brackets.isEmpty() ? "" : " (" + String.join("; ", brackets) + ")"));
        }
        List<String> out = new ArrayList<>();
        groups.forEach((group, texts) -> {
            if (!texts.isEmpty()) {
                out.add(group + " for " + String.join(", ", texts));
            }
        });
        return out.isEmpty() ? "nothing judged" : String.join("; ", out);
    }

    private String group(Outcome o) {
        return switch (o) {
            case BASELINE_BETTER, OTHER_BETTER -> "differs";
            case BELOW_THRESHOLD -> "real but below the " + Figures.threshold(threshold) + " threshold";
            case EQUAL -> "equal";
            case INCONCLUSIVE -> "inconclusive";
            case NO_INTERVAL -> "inconclusive (" + pair.oneRun() + ", no interval)";
            case NOT_JUDGED -> "not judged";
        };
    }

    private String metricsSentence() {
        List<String> parts = pair.headline().stream()
                .filter(d -> d.unit() == Unit.NUMBER)
                .map(d -> d.metric() + " " + d.changeText().replace("▲ ", "").replace("▼ ", "") + " ("
                        + pair.judgement(d) + ")")
                .collect(Collectors.toList());
        return parts.isEmpty() ? "" : "Workload metrics: " + String.join(", ", parts) + ".";
    }

    private String errorsSentence() {
        Delta errors = pair.delta(PairComparison.ERRORS).orElseThrow();
        Delta retries = pair.delta(PairComparison.RETRIES).orElseThrow();
        String s;
        if (errors.a() == 0 && errors.b() == 0) {
            s = "Neither side had errors";
        } else {
            String per = pair.repeated() ? " per run" : "";
            s = "Errors" + per + ": " + errors.unit().format(errors.a()) + " in " + a() + ", "
                    + errors.unit().format(errors.b()) + " in " + b() + " ("
                    + (PairComparison.decided(errors.outcome(threshold)) ? "`" + pair.winner(errors) + "` fewer"
                            : pair.judgement(errors)) + ")";
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
        Map<Outcome, Long> tally = new EnumMap<>(Outcome.class);
        pair.headline().forEach(d -> tally.merge(d.outcome(threshold), 1L, Long::sum));
        String s = "Of " + pair.headline().size() + " whole-run figures, " + b() + " is better on "
                + tally.getOrDefault(Outcome.OTHER_BETTER, 0L) + ", worse on "
                + tally.getOrDefault(Outcome.BASELINE_BETTER, 0L) + " and equal on "
                + tally.getOrDefault(Outcome.EQUAL, 0L);
        List<String> rest = new ArrayList<>();
        long small = tally.getOrDefault(Outcome.BELOW_THRESHOLD, 0L);
        long inconclusive = tally.getOrDefault(Outcome.INCONCLUSIVE, 0L);
        long noInterval = tally.getOrDefault(Outcome.NO_INTERVAL, 0L);
        long unjudged = tally.getOrDefault(Outcome.NOT_JUDGED, 0L);
        if (small > 0) {
            rest.add(small + (small == 1 ? " differs" : " differ") + " by less than the "
                    + Figures.threshold(threshold) + " threshold");
        }
        if (inconclusive > 0) {
            rest.add(inconclusive + " inconclusive");
        }
        if (noInterval > 0) {
            rest.add(noInterval + " inconclusive without an interval (" + pair.oneRun() + ")");
        }
        if (unjudged > 0) {
            rest.add(unjudged + " not judged");
        }
        return s + (rest.isEmpty() ? "" : "; " + String.join("; ", rest)) + ".";
    }
}

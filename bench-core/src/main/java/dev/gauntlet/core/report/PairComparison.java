package dev.gauntlet.core.report;

import dev.gauntlet.core.report.Delta.Direction;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A baseline run against one other run: the figures side by side, who wins each beyond the noise threshold,
 * what differs between the runs besides the variant, and a verdict written from those figures.
 */
public final class PairComparison {

    public static final String THROUGHPUT = "Throughput";
    public static final String MEAN = "Mean latency";
    public static final String P50 = "p50 latency";
    public static final String P95 = "p95 latency";
    public static final String P99 = "p99 latency";
    public static final String MAX = "Max latency";
    public static final String ERRORS = "Errors";
    public static final String RETRIES = "Retries";
    /** The word the Winner column uses when a change is within the noise threshold. */
    public static final String EQUAL = "Equal";

    private static final List<String> LATENCY_METRICS = List.of(MEAN, P50, P95, P99, MAX);

    private final LabelledRun baseline;
    private final LabelledRun other;
    private final double threshold;
    private final List<Delta> headline = new ArrayList<>();
    private final Map<String, List<Delta>> perOperation = new LinkedHashMap<>();
    private final List<String> differences = new ArrayList<>();

    private PairComparison(LabelledRun baseline, LabelledRun other, double thresholdPercent) {
        this.baseline = baseline;
        this.other = other;
        this.threshold = thresholdPercent;
    }

    static PairComparison of(LabelledRun baseline, LabelledRun other, double thresholdPercent) {
        PairComparison c = new PairComparison(baseline, other, thresholdPercent);
        c.collectHeadline();
        c.collectPerOperation();
        c.collectDifferences();
        return c;
    }

    public LabelledRun baseline() {
        return baseline;
    }

    public LabelledRun other() {
        return other;
    }

    public double thresholdPercent() {
        return threshold;
    }

    /** Whole-run figures: throughput, workload metrics both runs have, latency of all operations, errors. */
    public List<Delta> headline() {
        return List.copyOf(headline);
    }

    /** Per operation both runs have, when either run has more than one: throughput, latency, errors. */
    public Map<String, List<Delta>> perOperation() {
        return java.util.Collections.unmodifiableMap(perOperation);
    }

    /** What differs between the runs besides their results: workload, clients, parameters, environment. */
    public List<String> differences() {
        return List.copyOf(differences);
    }

    public Optional<Delta> delta(String metric) {
        return headline.stream().filter(d -> d.metric().equals(metric)).findFirst();
    }

    public Optional<Delta> delta(String operation, String metric) {
        return perOperation.getOrDefault(operation, List.of()).stream().filter(d -> d.metric().equals(metric))
                .findFirst();
    }

    /** The label of the better run on this figure, or {@link #EQUAL}. */
    public String winner(Delta d) {
        return switch (d.outcome(threshold)) {
            case BASELINE_BETTER -> baseline.label();
            case OTHER_BETTER -> other.label();
            case EQUAL -> EQUAL;
        };
    }

    /** The label of the run whose checks all passed when the other's failed; Equal when both agree. */
    public String checksWinner() {
        Check.Status a = baseline.result().checkStatus();
        Check.Status b = other.result().checkStatus();
        if (a == null || b == null) {
            return a == b ? EQUAL : "—";
        }
        if (a == b) {
            return EQUAL;
        }
        return a == Check.Status.PASS ? baseline.label() : other.label();
    }

    // ---- collecting the figures ----

    private void collectHeadline() {
        RunTotals a = RunTotals.of(baseline.result());
        RunTotals b = RunTotals.of(other.result());
        headline.add(new Delta(THROUGHPUT, Unit.OPS_PER_SECOND, Direction.HIGHER_IS_BETTER, a.opsPerSecond(),
                b.opsPerSecond()));
        Map<String, Double> ma = baseline.result().metrics();
        Map<String, Double> mb = other.result().metrics();
        for (String name : new TreeSet<>(ma.keySet())) {
            if (mb.containsKey(name) && ma.get(name) != null && mb.get(name) != null) {
                headline.add(new Delta(name, Unit.NUMBER, Direction.ofMetric(name), ma.get(name), mb.get(name)));
            }
        }
        headline.addAll(latencyDeltas(a.latencyMs(), b.latencyMs()));
        headline.add(new Delta(ERRORS, Unit.COUNT, Direction.LOWER_IS_BETTER, a.errors(), b.errors()));
        headline.add(new Delta(RETRIES, Unit.COUNT, Direction.LOWER_IS_BETTER, a.retries(), b.retries()));
    }

    private void collectPerOperation() {
        RunResult a = baseline.result();
        RunResult b = other.result();
        if (a.operations().size() <= 1 && b.operations().size() <= 1) {
            return;
        }
        for (OperationResult opA : a.operations()) {
            Optional<OperationResult> opB = b.operation(opA.name());
            if (opB.isEmpty()) {
                continue;
            }
            List<Delta> rows = new ArrayList<>();
            rows.add(new Delta(THROUGHPUT, Unit.OPS_PER_SECOND, Direction.HIGHER_IS_BETTER,
                    RunTotals.opsPerSecond(a, opA), RunTotals.opsPerSecond(b, opB.get())));
            rows.addAll(latencyDeltas(RunTotals.latency(opA), RunTotals.latency(opB.get())));
            rows.add(new Delta(ERRORS, Unit.COUNT, Direction.LOWER_IS_BETTER, opA.errors(), opB.get().errors()));
            perOperation.put(opA.name(), rows);
        }
    }

    private static List<Delta> latencyDeltas(LatencySummary a, LatencySummary b) {
        List<Function<LatencySummary, Double>> figures = List.of(LatencySummary::mean, LatencySummary::p50,
                LatencySummary::p95, LatencySummary::p99, LatencySummary::max);
        List<Delta> out = new ArrayList<>();
        for (int i = 0; i < figures.size(); i++) {
            out.add(new Delta(LATENCY_METRICS.get(i), Unit.MILLISECONDS, Direction.LOWER_IS_BETTER,
                    figures.get(i).apply(a), figures.get(i).apply(b)));
        }
        return out;
    }

    private void collectDifferences() {
        RunResult a = baseline.result();
        RunResult b = other.result();
        differ("workload", a.workload(), b.workload());
        differ("clients", a.clients(), b.clients());
        Set<String> keys = new TreeSet<>(a.parameters().keySet());
        keys.addAll(b.parameters().keySet());
        if (a.clients() != b.clients()) {
            keys.remove("clients"); // already named above
        }
        List<String> params = new ArrayList<>();
        for (String k : keys) {
            String va = a.parameters().containsKey(k) ? String.valueOf(a.parameters().get(k)) : "absent";
            String vb = b.parameters().containsKey(k) ? String.valueOf(b.parameters().get(k)) : "absent";
            if (!va.equals(vb)) {
                params.add("`" + k + "` (" + va + " vs " + vb + ")");
            }
        }
        if (!params.isEmpty()) {
            differences.add("parameters " + String.join(", ", params));
        }
        double longer = Math.max(a.measuredSeconds(), b.measuredSeconds());
        if (longer > 0 && Math.abs(a.measuredSeconds() - b.measuredSeconds()) / longer * 100 >= threshold) {
            differences.add("measured time (" + Figures.seconds(a.measuredSeconds()) + " vs "
                    + Figures.seconds(b.measuredSeconds()) + ")");
        }
        Environment ea = a.environment();
        Environment eb = b.environment();
        if (ea != null && eb != null) {
            differ("CPUs", ea.cpus(), eb.cpus());
            differ("database", ea.database(), eb.database());
            differ("host", ea.host(), eb.host());
        }
        List<String> onlyA = onlyIn(a, b);
        List<String> onlyB = onlyIn(b, a);
        if (!onlyA.isEmpty() || !onlyB.isEmpty()) {
            differences.add("operations (only in `" + baseline.label() + "`: " + listOrNone(onlyA) + "; only in `"
                    + other.label() + "`: " + listOrNone(onlyB) + ")");
        }
    }

    private void differ(String what, Object a, Object b) {
        if (!Objects.equals(a, b)) {
            differences.add(what + " (" + Figures.orDash(a) + " vs " + Figures.orDash(b) + ")");
        }
    }

    private static List<String> onlyIn(RunResult r, RunResult other) {
        return r.operations().stream().map(OperationResult::name).filter(n -> other.operation(n).isEmpty())
                .toList();
    }

    private static String listOrNone(List<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    // ---- rendering ----

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("## `").append(baseline.label()).append("` vs `").append(other.label()).append("`\n\n");
        if (!differences.isEmpty()) {
            md.append("> **Not like for like:** the runs differ in ").append(String.join("; ", differences))
                    .append(". Differences below may come from these rather than from the variant under test ")
                    .append("(a differing parameter is expected when it is the variable being tested).\n\n");
        }
        md.append(table(headline).row(List.of("Checks", checksText(baseline.result()),
                checksText(other.result()), "—", checksWinner())).render()).append('\n');
        if (!perOperation.isEmpty()) {
            md.append("Per operation (operations both runs have):\n\n");
            perOperation.forEach((op, rows) -> md.append("### ").append(op).append("\n\n")
                    .append(table(rows).render()).append('\n'));
        }
        md.append("**Verdict:** ").append(verdict()).append("\n\n");
        return md.toString();
    }

    private MarkdownTable table(List<Delta> rows) {
        MarkdownTable t = new MarkdownTable().left("Metric").right(baseline.label(), other.label(), "Change")
                .left("Winner");
        for (Delta d : rows) {
            t.row(d.metric(), d.unit().format(d.a()), d.unit().format(d.b()), d.changeText(), winner(d));
        }
        return t;
    }

    private static String checksText(RunResult r) {
        Check.Status s = r.checkStatus();
        if (s == null) {
            return "none";
        }
        CheckTally t = CheckTally.of(r);
        return s == Check.Status.FAIL ? "FAIL (" + t.failed() + " of " + t.total() + ")"
                : "PASS (" + t.passed() + " of " + t.total() + ")";
    }

    /** One paragraph, every clause computed from the figures above it. */
    public String verdict() {
        return new Verdict(this).paragraph();
    }

    static boolean isLatency(String metric) {
        return LATENCY_METRICS.contains(metric);
    }
}

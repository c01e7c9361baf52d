package dev.gauntlet.core.report;

import dev.gauntlet.core.report.Delta.Outcome;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.MetricInfo.Better;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Saturation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * A baseline side against one other side (each one run, or the repeated runs of a variant): the figures side by
 * side, who wins each (see {@link Delta} for how a winner is judged), what differs between the sides besides the
 * variant, and a verdict written from those figures.
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
    /** The Winner column when the whole confidence interval lies within ±threshold (equality shown). */
    public static final String EQUAL = "Equal";
    /** How the Winner column begins when a figure shows neither a difference nor equality. */
    public static final String INCONCLUSIVE = "inconclusive";

    /**
     * Where an experiment's runs list the parameters it varies on purpose (see
     * {@code dev.gauntlet.core.experiment.Cell#runParameters}): those differ by design.
     */
    public static final String VARIABLES = "experimentVariables";
    private static final List<String> LATENCY_METRICS = List.of(MEAN, P50, P95, P99, MAX);

    private final RunGroup baseline;
    private final RunGroup other;
    private final double threshold;
    private final List<Delta> headline = new ArrayList<>();
    private final Map<String, List<Delta>> perOperation = new LinkedHashMap<>();
    private final List<String> differences = new ArrayList<>();

    private PairComparison(RunGroup baseline, RunGroup other, double thresholdPercent) {
        this.baseline = baseline;
        this.other = other;
        this.threshold = thresholdPercent;
    }

    static PairComparison of(RunGroup baseline, RunGroup other, double thresholdPercent) {
        PairComparison c = new PairComparison(baseline, other, thresholdPercent);
        c.collectHeadline();
        c.collectPerOperation();
        c.collectDifferences();
        return c;
    }

    public RunGroup baseline() {
        return baseline;
    }

    public RunGroup other() {
        return other;
    }

    public double thresholdPercent() {
        return threshold;
    }

    /** Whole-run figures: throughput, workload metrics both sides have, latency of all operations, errors. */
    public List<Delta> headline() {
        return List.copyOf(headline);
    }

    /** Per operation both sides have, when either has more than one: throughput, latency, errors. */
    public Map<String, List<Delta>> perOperation() {
        return java.util.Collections.unmodifiableMap(perOperation);
    }

    /** What differs between the sides besides their results: workload, clients, parameters, environment. */
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

    /**
     * The Winner column: the better side's label, {@link #EQUAL}, "real, below 5%" (a difference shown, smaller than
     * the threshold), {@link #INCONCLUSIVE} with the runs per side that would decide it, or "—" (not judged).
     */
    public String winner(Delta d) {
        return switch (d.outcome(threshold)) {
            case BASELINE_BETTER -> baseline.label();
            case OTHER_BETTER -> other.label();
            case EQUAL -> EQUAL;
            case BELOW_THRESHOLD -> "real, below " + Figures.threshold(threshold);
            case INCONCLUSIVE -> INCONCLUSIVE + ", " + runsToDecide(d);
            case NO_INTERVAL -> INCONCLUSIVE + ": " + oneRun();
            case NOT_JUDGED -> "—";
        };
    }

    /** The same judgement in a verdict's words, e.g. "`procedures` better" or "inconclusive, ~9 runs per side". */
    String judgement(Delta d) {
        return switch (d.outcome(threshold)) {
            case BASELINE_BETTER, OTHER_BETTER -> "`" + winner(d) + "` better";
            case EQUAL -> "equal";
            case BELOW_THRESHOLD -> "real, below the " + Figures.threshold(threshold) + " threshold";
            case INCONCLUSIVE, NO_INTERVAL -> winner(d);
            case NOT_JUDGED -> "not judged";
        };
    }

    /**
     * How many runs per side would decide an inconclusive figure at the spread observed (see {@link
     * Delta#runsToDecide}), e.g. "~9 runs per side".
     */
    String runsToDecide(Delta d) {
        return d.runsToDecide(threshold).map(RunsToDecide::text).orElse(oneRun());
    }

    /** Why there is no interval: "one run each", or which side has only one. */
    String oneRun() {
        if (baseline.size() < 2 && other.size() < 2) {
            return "one run each";
        }
        return "one run in `" + (baseline.size() < 2 ? baseline : other).label() + "`";
    }

    /** The label of the side whose checks all passed when the other's failed; Equal when both agree. */
    public String checksWinner() {
        Check.Status a = status(baseline);
        Check.Status b = status(other);
        if (a == null || b == null) {
            return a == b ? EQUAL : "—";
        }
        if (a == b) {
            return EQUAL;
        }
        return a == Check.Status.PASS ? baseline.label() : other.label();
    }

    /** FAIL when any run of the side failed a check, PASS when checks ran and none failed, null when none ran. */
    static Check.Status status(RunGroup side) {
        List<Check.Status> statuses = side.results().stream().map(RunResult::checkStatus).filter(Objects::nonNull)
                .toList();
        if (statuses.isEmpty()) {
            return null;
        }
        return statuses.contains(Check.Status.FAIL) ? Check.Status.FAIL : Check.Status.PASS;
    }

    /** The sides that ran open loop and could not keep their rate, with how far they fell short. */
    public Map<String, Saturation> saturated() {
        Map<String, Saturation> out = new LinkedHashMap<>();
        for (RunGroup side : List.of(baseline, other)) {
            side.results().stream().map(Saturation::of).flatMap(Optional::stream).filter(Saturation::saturated)
                    .min(java.util.Comparator.comparingDouble(s -> s.achievedOpsPerSecond() / s.targetOpsPerSecond()))
                    .ifPresent(s -> out.put(side.label(), s));
        }
        return out;
    }

    // ---- collecting the figures ----

    private void collectHeadline() {
        headline.add(delta(THROUGHPUT, Unit.OPS_PER_SECOND, Better.HIGHER, PairComparison::throughput,
                r -> RunTotals.of(r).opsPerSecond()));
        for (String name : metricsOfBoth()) {
            MetricInfo info = baseline.first().metricInfo(name);
            headline.add(delta(name, Unit.NUMBER, info.better(), side -> mean(side, r -> r.metrics().get(name)),
                    r -> r.metrics().get(name)));
        }
        headline.addAll(latencyDeltas(side -> RunTotals.latency(side.results()),
                r -> RunTotals.of(r).latencyMs()));
        headline.add(delta(ERRORS, Unit.COUNT, Better.LOWER, side -> mean(side, r -> RunTotals.errors(r)),
                r -> RunTotals.errors(r)));
        headline.add(delta(RETRIES, Unit.COUNT, Better.LOWER, side -> mean(side, r -> r.totalRetries()),
                r -> r.totalRetries()));
    }

    /** Metrics every run of both sides has, in the baseline's order. */
    private List<String> metricsOfBoth() {
        List<String> names = new ArrayList<>();
        for (String name : baseline.first().metrics().keySet()) {
            boolean everywhere = java.util.stream.Stream.concat(baseline.results().stream(), other.results().stream())
                    .allMatch(r -> r.metrics().get(name) != null);
            if (everywhere) {
                names.add(name);
            }
        }
        return names;
    }

    private void collectPerOperation() {
        boolean several = baseline.results().stream().anyMatch(r -> r.operations().size() > 1)
                || other.results().stream().anyMatch(r -> r.operations().size() > 1);
        if (!several) {
            return;
        }
        for (OperationResult op : baseline.first().operations()) {
            String name = op.name();
            boolean inAll = java.util.stream.Stream.concat(baseline.results().stream(), other.results().stream())
                    .allMatch(r -> r.operation(name).isPresent());
            if (!inAll) {
                continue;
            }
            List<Delta> rows = new ArrayList<>();
            rows.add(delta(THROUGHPUT, Unit.OPS_PER_SECOND, Better.HIGHER, side -> operationThroughput(side, name),
                    r -> RunTotals.opsPerSecond(r, r.operation(name).orElseThrow())));
            rows.addAll(latencyDeltas(side -> RunTotals.latency(side.results(), name),
                    r -> RunTotals.latency(r.operation(name).orElseThrow())));
            rows.add(delta(ERRORS, Unit.COUNT, Better.LOWER,
                    side -> mean(side, r -> r.operation(name).orElseThrow().errors()),
                    r -> r.operation(name).orElseThrow().errors()));
            perOperation.put(name, rows);
        }
    }

    /** A figure of both sides: the side's value, and each run's value for the confidence interval. */
    private Delta delta(String metric, Unit unit, Better better, Function<RunGroup, Double> sideValue,
                        ToDoubleFunction<RunResult> runValue) {
        return new Delta(metric, unit, better, sideValue.apply(baseline), sideValue.apply(other),
                baseline.results().stream().mapToDouble(runValue).toArray(),
                other.results().stream().mapToDouble(runValue).toArray());
    }

    private List<Delta> latencyDeltas(Function<RunGroup, LatencySummary> side, Function<RunResult, LatencySummary> run) {
        List<Function<LatencySummary, Double>> figures = List.of(LatencySummary::mean, LatencySummary::p50,
                LatencySummary::p95, LatencySummary::p99, LatencySummary::max);
        List<Delta> out = new ArrayList<>();
        for (int i = 0; i < figures.size(); i++) {
            Function<LatencySummary, Double> figure = figures.get(i);
            out.add(delta(LATENCY_METRICS.get(i), Unit.MILLISECONDS, Better.LOWER,
                    g -> figure.apply(side.apply(g)), r -> figure.apply(run.apply(r))));
        }
        return out;
    }

    /** A side's throughput: all its operations over all its measured time (one run: its own throughput). */
    /** A side's throughput: all its operations over all its measured time (see {@link #pooledRate}). */
    private static double throughput(RunGroup side) {
        return pooledRate(side, r -> RunTotals.of(r).opsPerSecond());
    }

    private static double operationThroughput(RunGroup side, String op) {
        return pooledRate(side, r -> RunTotals.opsPerSecond(r, r.operation(op).orElseThrow()));
    }

    /**
     * The runs' rates weighted by their measured seconds: for runs of one process, all their operations over all
     * their measured time; a merged result counts with its own rate (its processes' rates summed), not its count
     * over the span of their windows.
     */
    private static double pooledRate(RunGroup side, ToDoubleFunction<RunResult> rate) {
        double seconds = side.results().stream().mapToDouble(RunResult::measuredSeconds).sum();
        if (seconds <= 0) {
            return mean(side, rate);
        }
        return side.results().stream().mapToDouble(r -> rate.applyAsDouble(r) * r.measuredSeconds()).sum() / seconds;
    }

    private static double mean(RunGroup side, ToDoubleFunction<RunResult> value) {
        return side.results().stream().mapToDouble(value).average().orElse(0);
    }

    private void collectDifferences() {
        RunResult a = baseline.first();
        RunResult b = other.first();
        differ("workload", values(baseline, RunResult::workload), values(other, RunResult::workload));
        differ("clients", values(baseline, RunResult::clients), values(other, RunResult::clients));
        Set<String> keys = new TreeSet<>();
        java.util.stream.Stream.concat(baseline.results().stream(), other.results().stream())
                .forEach(r -> keys.addAll(r.parameters().keySet()));
        // Parameters that differ between runs without making them unlike: the seed and what else was drawn at random.
        java.util.stream.Stream.concat(baseline.results().stream(), other.results().stream())
                .forEach(r -> keys.removeIf(k -> !dev.gauntlet.core.result.Conditions.isCondition(r, k)));
        keys.remove("clients"); // named above
        keys.remove(VARIABLES);
        java.util.stream.Stream.concat(baseline.results().stream(), other.results().stream())
                .map(r -> r.parameters().get(VARIABLES)).filter(Objects::nonNull)
                .forEach(v -> java.util.Arrays.stream(v.toString().split(",")).map(String::strip).forEach(keys::remove));
        List<String> params = new ArrayList<>();
        for (String k : keys) {
            Set<String> va = values(baseline, r -> r.parameters().containsKey(k) ? r.parameters().get(k) : "absent");
            Set<String> vb = values(other, r -> r.parameters().containsKey(k) ? r.parameters().get(k) : "absent");
            // A parameter that already varies between the runs of one side is not what separates the sides.
            if (va.size() == 1 && vb.size() == 1 && !va.equals(vb)) {
                params.add("`" + k + "` (" + va.iterator().next() + " vs " + vb.iterator().next() + ")");
            }
        }
        if (!params.isEmpty()) {
            differences.add("parameters " + String.join(", ", params));
        }
        double ma = a.measuredSeconds();
        double mb = b.measuredSeconds();
        double longer = Math.max(ma, mb);
        if (longer > 0 && Math.abs(ma - mb) / longer * 100 >= threshold) {
            differences.add("measured time (" + Figures.seconds(ma) + " vs " + Figures.seconds(mb) + ")");
        }
        Environment ea = a.environment();
        Environment eb = b.environment();
        if (ea != null && eb != null) {
            differ("CPUs", Set.of(String.valueOf(ea.cpus())), Set.of(String.valueOf(eb.cpus())));
            differ("database", Set.of(String.valueOf(ea.database())), Set.of(String.valueOf(eb.database())));
            differ("host", Set.of(String.valueOf(ea.host())), Set.of(String.valueOf(eb.host())));
        }
        List<String> onlyA = onlyIn(a, b);
        List<String> onlyB = onlyIn(b, a);
        if (!onlyA.isEmpty() || !onlyB.isEmpty()) {
            differences.add("operations (only in `" + baseline.label() + "`: " + listOrNone(onlyA) + "; only in `"
                    + other.label() + "`: " + listOrNone(onlyB) + ")");
        }
    }

    private static Set<String> values(RunGroup side, Function<RunResult, Object> field) {
        return side.results().stream().map(r -> Figures.orDash(field.apply(r)))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void differ(String what, Set<String> a, Set<String> b) {
        if (!a.equals(b)) {
            differences.add(what + " (" + String.join("/", a) + " vs " + String.join("/", b) + ")");
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
        saturated().forEach((label, s) -> md.append("> **Saturated:** `").append(label).append("` ")
                .append(s.warning().replaceFirst("^saturated: ", "")).append(".\n\n"));
        md.append(table(headline).row(List.of("Checks", checksText(baseline), checksText(other), "—", "—",
                checksWinner())).render()).append('\n');
        if (!perOperation.isEmpty()) {
            md.append("Per operation (operations both sides have):\n\n");
            perOperation.forEach((op, rows) -> md.append("### ").append(op).append("\n\n")
                    .append(table(rows).render()).append('\n'));
        }
        md.append("**Verdict:** ").append(verdict()).append("\n\n");
        return md.toString();
    }

    private MarkdownTable table(List<Delta> rows) {
        MarkdownTable t = new MarkdownTable().left("Metric").right(header(baseline), header(other), "Change",
                "95% CI").left("Winner");
        for (Delta d : rows) {
            t.row(d.metric(), d.unit().format(d.a()), d.unit().format(d.b()), d.changeText(), d.confidenceText(),
                    winner(d));
        }
        return t;
    }

    private static String header(RunGroup side) {
        return side.size() == 1 ? side.label() : side.label() + " (" + side.size() + " runs)";
    }

    private static String checksText(RunGroup side) {
        Check.Status s = status(side);
        if (s == null) {
            return "none";
        }
        int passed = 0;
        int failed = 0;
        int total = 0;
        for (RunResult r : side.results()) {
            CheckTally t = CheckTally.of(r);
            passed += t.passed();
            failed += t.failed();
            total += t.total();
        }
        return s == Check.Status.FAIL ? "FAIL (" + failed + " of " + total + ")"
                : "PASS (" + passed + " of " + total + ")";
    }

    /** One paragraph, every clause computed from the figures above it. */
    public String verdict() {
        return new Verdict(this).paragraph();
    }

    static boolean isLatency(String metric) {
        return LATENCY_METRICS.contains(metric);
    }

    /** True when the outcome names a winner. */
    static boolean decided(Outcome o) {
        return o == Outcome.BASELINE_BETTER || o == Outcome.OTHER_BETTER;
    }

    /** True when both sides have the two runs or more that a confidence interval needs. */
    boolean repeated() {
        return baseline.size() >= 2 && other.size() >= 2;
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * One result from several driver processes that ran the same workload at the same time, as if one process had
 * recorded every sample: histograms are added (so every percentile equals that of the union of samples; nothing
 * is averaged), counts, errors and retries summed, and throughput is the total count over the longest measured
 * time.
 *
 * <ul>
 *   <li>Intervals are aligned by position (the processes share a start and a reporting period); each merged
 *       interval ends at the latest {@code t} of its inputs. Where an input interval has no histogram its
 *       percentiles cannot be merged exactly, so the merged interval shows the worst input's (an upper bound,
 *       since a percentile of a union never exceeds the largest percentile of its parts).</li>
 *   <li>Workload metrics are kept only when additive (rates and counts: names starting with {@code tpm} or
 *       {@code tps}, or ending in {@code PerSecond}, {@code PerMinute}, {@code Count}, {@code Total},
 *       {@code Bytes}) and present in every input; ratios such as {@code efficiencyPercent} are dropped and
 *       listed under the {@value #DROPPED_METRICS} parameter. A workload that can recompute them adds them back
 *       with {@link RunResult#withMetricsAndChecks}.</li>
 *   <li>Checks with the same name are merged, worst first: FAIL if any input failed, else PASS if any passed.</li>
 *   <li>Parameters, tool, command and phases come from the first input; {@value #MERGED_FROM} counts the
 *       processes merged (nested merges add up), and {@value #DIFFERING_PARAMETERS} names parameters whose
 *       values differed between inputs.</li>
 * </ul>
 */
public final class ResultMerge {

    public static final String MERGED_FROM = "mergedFrom";
    public static final String DROPPED_METRICS = "mergeDroppedMetrics";
    public static final String DIFFERING_PARAMETERS = "mergeDifferingParameters";

    private static final List<String> ADDITIVE_PREFIXES = List.of("tpm", "tps");
    private static final List<String> ADDITIVE_SUFFIXES = List.of("persecond", "perminute", "count", "total",
            "bytes");

    private ResultMerge() {
    }

    /**
     * @throws ResultFormatException when there is nothing to merge, or the inputs are of different workloads or
     *                           variants (they cannot be processes of one run)
     */
    public static RunResult merge(List<RunResult> runs) {
        if (runs.isEmpty()) {
            throw new ResultFormatException("nothing to merge: give the result of at least one driver process");
        }
        requireSame(runs, RunResult::workload, "workloads");
        requireSame(runs, RunResult::variant, "variants");
        RunResult first = runs.get(0);
        double measured = runs.stream().mapToDouble(RunResult::measuredSeconds).max().orElse(0);
        return new RunResult(RunResult.SCHEMA_VERSION, first.tool(), first.workload(), first.variant(),
                first.command(), earliest(runs), latest(runs), measured,
                runs.stream().mapToInt(RunResult::clients).sum(), environment(runs), parameters(runs),
                operations(runs, measured), metrics(runs), intervals(runs), first.phases(), errors(runs),
                checks(runs));
    }

    private static void requireSame(List<RunResult> runs, Function<RunResult, String> field, String what) {
        Set<String> values = runs.stream().map(r -> String.valueOf(field.apply(r)))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (values.size() > 1) {
            throw new ResultFormatException("cannot merge results of different " + what + " (" + String.join(", ", values)
                    + "): merge combines driver processes of one run; use 'report compare' to compare runs");
        }
    }

    // ---- operations ----

    private static List<OperationResult> operations(List<RunResult> runs, double measured) {
        Map<String, List<OperationResult>> byName = new LinkedHashMap<>();
        runs.forEach(r -> r.operations().forEach(o -> byName.computeIfAbsent(o.name(), k -> new ArrayList<>()).add(o)));
        List<OperationResult> merged = new ArrayList<>();
        byName.forEach((name, parts) -> {
            Histogram h = Histograms.sum(parts.stream().map(OperationResult::histogram).toList());
            long count = sum(parts, OperationResult::count);
            double recordedRate = parts.stream().mapToDouble(OperationResult::opsPerSecond).sum();
            merged.add(new OperationResult(name, count, sum(parts, OperationResult::errors),
                    sum(parts, OperationResult::retries), Figures.perSecond(count, measured, recordedRate),
                    LatencySummary.of(h), HistogramCodec.encode(h),
                    timing(parts.stream().map(OperationResult::serviceTime).toList()),
                    timing(parts.stream().map(OperationResult::poolWait).toList()), counters(parts)));
        });
        return merged;
    }

    /** Counters are plain counts of committed work, so they add up across driver processes. */
    private static Map<String, Long> counters(List<OperationResult> parts) {
        Map<String, Long> sum = new LinkedHashMap<>();
        parts.forEach(p -> p.counters().forEach((k, v) -> sum.merge(k, v, Long::sum)));
        return sum;
    }

    /** A secondary distribution merges only if every input that has it kept its histogram. */
    private static Timing timing(List<Timing> parts) {
        List<Timing> present = parts.stream().filter(Objects::nonNull).toList();
        if (present.isEmpty() || present.stream().anyMatch(t -> t.histogram() == null)) {
            return null;
        }
        return Timing.of(Histograms.sum(present.stream().map(Timing::histogram).toList()));
    }

    private static <T> long sum(List<T> parts, ToLongFunction<T> field) {
        return parts.stream().mapToLong(field).sum();
    }

    // ---- intervals ----

    private static List<Interval> intervals(List<RunResult> runs) {
        int length = runs.stream().mapToInt(r -> r.intervals().size()).max().orElse(0);
        List<Interval> merged = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            List<Interval> parts = new ArrayList<>();
            for (RunResult r : runs) {
                if (i < r.intervals().size()) {
                    parts.add(r.intervals().get(i));
                }
            }
            merged.add(interval(parts));
        }
        return merged;
    }

    private static Interval interval(List<Interval> parts) {
        double t = parts.stream().mapToDouble(Interval::t).max().orElse(0);
        double seconds = parts.stream().mapToDouble(Interval::seconds).max().orElse(0);
        String phase = parts.stream().map(Interval::phase).filter(Objects::nonNull).findFirst().orElse(null);
        Map<String, List<IntervalOperation>> byName = new TreeMap<>();
        parts.forEach(p -> p.operations().forEach((name, op) ->
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(op)));
        Map<String, IntervalOperation> ops = new TreeMap<>();
        byName.forEach((name, list) -> ops.put(name, intervalOperation(list, seconds)));
        return new Interval(t, seconds, phase, ops, sum(parts, Interval::errors), sum(parts, Interval::retries));
    }

    private static IntervalOperation intervalOperation(List<IntervalOperation> parts, double seconds) {
        long count = sum(parts, IntervalOperation::count);
        double recordedRate = parts.stream().mapToDouble(IntervalOperation::opsPerSecond).sum();
        double rate = Figures.perSecond(count, seconds, recordedRate);
        long errors = sum(parts, IntervalOperation::errors);
        long retries = sum(parts, IntervalOperation::retries);
        if (parts.stream().allMatch(p -> p.histogram() != null)) {
            Histogram h = Histograms.sum(parts.stream().map(IntervalOperation::histogram).toList());
            LatencySummary l = LatencySummary.of(h);
            return new IntervalOperation(count, rate, l.p50(), l.p95(), l.p99(), l.max(), errors, retries,
                    HistogramCodec.encode(h));
        }
        return new IntervalOperation(count, rate, worst(parts, IntervalOperation::p50),
                worst(parts, IntervalOperation::p95), worst(parts, IntervalOperation::p99),
                worst(parts, IntervalOperation::max), errors, retries, null);
    }

    private static double worst(List<IntervalOperation> parts, java.util.function.ToDoubleFunction<IntervalOperation> f) {
        return parts.stream().mapToDouble(f).max().orElse(0);
    }

    // ---- the rest ----

    private static List<ErrorCount> errors(List<RunResult> runs) {
        Map<List<String>, ErrorCount> byKind = new LinkedHashMap<>();
        runs.forEach(r -> r.errors().forEach(e -> byKind.merge(java.util.Arrays.asList(e.errorClass(), e.sqlState()),
                e, (x, y) -> new ErrorCount(x.errorClass(), x.sqlState(), x.count() + y.count(),
                        x.example() != null ? x.example() : y.example()))));
        return List.copyOf(byKind.values());
    }

    private static List<Check> checks(List<RunResult> runs) {
        Map<String, List<Check>> byName = new LinkedHashMap<>();
        runs.forEach(r -> r.checks().forEach(c -> byName.computeIfAbsent(c.name(), k -> new ArrayList<>()).add(c)));
        List<Check> merged = new ArrayList<>();
        byName.forEach((name, parts) -> {
            Check.Status status = parts.stream().map(Check::status).filter(Objects::nonNull)
                    .min(Comparator.comparingInt(ResultMerge::severity)).orElse(Check.Status.SKIP);
            String detail = parts.stream().map(Check::detail).filter(d -> d != null && !d.isBlank()).distinct()
                    .collect(Collectors.joining("; "));
            merged.add(new Check(name, status, detail));
        });
        return merged;
    }

    /** Lower is worse: one failing process fails the merged check. */
    private static int severity(Check.Status s) {
        return switch (s) {
            case FAIL -> 0;
            case PASS -> 1;
            case SKIP -> 2;
        };
    }

    private static Map<String, Double> metrics(List<RunResult> runs) {
        Set<String> names = new TreeSet<>();
        runs.forEach(r -> names.addAll(r.metrics().keySet()));
        Map<String, Double> merged = new TreeMap<>();
        for (String name : names) {
            if (additive(name) && runs.stream().allMatch(r -> r.metrics().get(name) != null)) {
                merged.put(name, runs.stream().mapToDouble(r -> r.metrics().get(name)).sum());
            }
        }
        return merged;
    }

    static boolean additive(String metric) {
        String n = metric.toLowerCase(Locale.ROOT);
        return ADDITIVE_PREFIXES.stream().anyMatch(n::startsWith) || ADDITIVE_SUFFIXES.stream().anyMatch(n::endsWith);
    }

    private static Map<String, Object> parameters(List<RunResult> runs) {
        Map<String, Object> params = new LinkedHashMap<>(runs.get(0).parameters());
        params.remove(DROPPED_METRICS);
        params.remove(DIFFERING_PARAMETERS);
        params.put(MERGED_FROM, runs.stream().mapToLong(ResultMerge::processes).sum());
        Set<String> dropped = new TreeSet<>();
        runs.forEach(r -> dropped.addAll(r.metrics().keySet()));
        dropped.removeAll(metrics(runs).keySet());
        if (!dropped.isEmpty()) {
            params.put(DROPPED_METRICS, String.join(", ", dropped));
        }
        Set<String> keys = new TreeSet<>();
        runs.forEach(r -> keys.addAll(r.parameters().keySet()));
        keys.remove(MERGED_FROM);
        String differing = keys.stream()
                .filter(k -> runs.stream().map(r -> String.valueOf(r.parameters().get(k))).distinct().count() > 1)
                .collect(Collectors.joining(", "));
        if (!differing.isEmpty()) {
            params.put(DIFFERING_PARAMETERS, differing);
        }
        return params;
    }

    /** An input that is itself a merge stands for the processes it was merged from. */
    private static long processes(RunResult r) {
        Object n = r.parameters().get(MERGED_FROM);
        return n instanceof Number num && num.longValue() > 0 ? num.longValue() : 1;
    }

    private static Environment environment(List<RunResult> runs) {
        Environment first = runs.get(0).environment();
        if (first == null) {
            return null;
        }
        String hosts = runs.stream().map(RunResult::environment).filter(Objects::nonNull).map(Environment::host)
                .filter(Objects::nonNull).distinct().collect(Collectors.joining(", "));
        return new Environment(first.jvm(), first.os(), first.cpus(), first.maxHeapBytes(),
                hosts.isEmpty() ? first.host() : hosts, first.database(), first.databaseUrl());
    }

    private static String earliest(List<RunResult> runs) {
        return runs.stream().map(RunResult::startedAt).filter(Objects::nonNull).min(ResultMerge::compareTimes)
                .orElse(null);
    }

    private static String latest(List<RunResult> runs) {
        return runs.stream().map(RunResult::endedAt).filter(Objects::nonNull).max(ResultMerge::compareTimes)
                .orElse(null);
    }

    /** ISO instants compare as instants; anything else falls back to text order rather than failing a merge. */
    private static int compareTimes(String a, String b) {
        try {
            return Instant.parse(a).compareTo(Instant.parse(b));
        } catch (DateTimeParseException e) {
            return a.compareTo(b);
        }
    }
}

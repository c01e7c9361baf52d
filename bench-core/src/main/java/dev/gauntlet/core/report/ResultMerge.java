package dev.gauntlet.core.report;

import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.FullTimeline;
import dev.gauntlet.core.result.InlineIntervals;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.RoleResult;
import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.TimelineFile;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.result.WorkerShare;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
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
 * is averaged), counts, errors and retries summed.
 *
 * <p>What cannot be merged is refused, with one line naming the problem: inputs of different workloads, variants
 * or reporting periods; the same run given twice (results carry a {@code runId}, and a merged result the ids of
 * every run in it); {@code --worker} shares that are not each there exactly once; inputs whose measured windows do
 * not all overlap (runs made one after the other are not processes of one run, and summing them would double the
 * throughput: compare them instead).
 *
 * <ul>
 *   <li>Throughput is the sum of each process's own rate over its own measured window, the rule tpmC and every
 *       other summed rate follow too: when the processes were measured over the same window (as
 *       {@code --start-at} arranges) it is the total count over that window; a process that started late does not
 *       dilute the others' rates. The merged measured time is the span from the earliest measured start to the
 *       latest measured end.</li>
 *   <li>Intervals are aligned by wall-clock time, not by position: intervals of different inputs whose ends lie
 *       within half a reporting period of each other are merged. Where an input interval has no histogram its
 *       percentiles cannot be merged exactly, so the merged interval shows the worst input's (an upper bound,
 *       since a percentile of a union never exceeds the largest percentile of its parts).</li>
 *   <li>Workload metrics are merged by the rule the workload declared with each ({@link MetricInfo.Merge}): summed
 *       (tpmC), the median of what every process saw of one server (the server's own tpmC), a mean weighted by
 *       completed operations (driver CPU per transaction), a server-wide total over all operations (server CPU per
 *       transaction); metrics without a rule (a confidence interval), or missing from an input, are dropped and
 *       listed under the {@value #DROPPED_METRICS} parameter.</li>
 *   <li>Gauges merge by the rule each declared ({@link GaugeInfo.Merge}): a process's own share adds up, a
 *       reading of the one server every process read (table sizes, wait events) is their median, lag is the
 *       largest; in the summary and in every interval. Results written before gauges declared a rule are summed.</li>
 *   <li>Phases span the inputs' own on the merged timeline, each operation's figures in a phase from the inputs' phase
 *       histograms summed, its rate the sum of the processes' rates.</li>
 *   <li>Disruptions are placed on the merged timeline: what an input injected, as it recorded it; a disruption an
 *       input records only as planned (another process of the run injected it: {@code run --plan --worker}) is the
 *       injecting input's. With the recovery rule the inputs record ({@link RecoveryRule}), each disruption's recovery
 *       and the unavailable seconds are judged again on the merged timeline ({@link RecoveryAnalysis}): the seconds
 *       in which no process committed anything, the workload as a whole back to its baseline.</li>
 *   <li>With the inputs' timeline files, the merged timeline has every reporting interval: written beside the
 *       merged result, which keeps it downsampled as a run does.</li>
 *   <li>Checks with the same name are merged, worst first: FAIL if any input failed, else PASS if any passed.</li>
 *   <li>Objectives ({@code --slo}) are judged again on the merged result: the merged histograms, rates and
 *       metrics.</li>
 *   <li>Parameters, tool and command come from the first input; {@value #MERGED_FROM} counts the processes merged
 *       (nested merges add up), and {@value #DIFFERING_PARAMETERS} names parameters whose values differed.</li>
 * </ul>
 */
public final class ResultMerge {

    public static final String MERGED_FROM = "mergedFrom";
    public static final String DROPPED_METRICS = "mergeDroppedMetrics";
    public static final String DIFFERING_PARAMETERS = "mergeDifferingParameters";

    private ResultMerge() {
    }

    /**
     * The merge of the runs' own intervals (a long run's downsampled ones; see {@link #merge(List, List, Path)}).
     *
     * @throws ResultFormatException when there is nothing to merge, or the inputs cannot be processes of one run
     */
    public static RunResult merge(List<RunResult> runs) {
        return merge(runs, runs.stream().map(r -> Timeline.of(r.intervals())).toList(), null);
    }

    /**
     * The merge of the runs with their full timelines ({@code timelines.get(i)} is {@code runs.get(i)}'s: its
     * timeline file, or its own intervals). When every timeline has every reporting interval and
     * {@code timelineFile} is given, the merged timeline is written there, interval by interval, and the result
     * keeps it downsampled as a run does ({@link InlineIntervals}), naming it {@value TimelineFile#NAME} (the file's
     * name beside the merged {@code result.json}, wherever it is written first); otherwise the result keeps the
     * merged intervals.
     * Recovery and unavailability are judged on the merged timeline by the rule the inputs recorded, if any.
     *
     * @throws ResultFormatException when there is nothing to merge, or the inputs cannot be processes of one run
     * @throws UncheckedIOException  when the merged timeline cannot be written
     */
    public static RunResult merge(List<RunResult> runs, List<Timeline> timelines, Path timelineFile) {
        if (runs.isEmpty()) {
            throw new ResultFormatException("nothing to merge: give the result of at least one driver process");
        }
        MergeInputs inputs = MergeInputs.check(runs);
        double measured = inputs.measuredEnd() - inputs.measuredStart();
        RunResult first = runs.get(0);
        Map<String, GaugeSummary> gauges = gaugeSummaries(runs);
        RunResult.Builder merged = RunResult.builder()
                .runId(RunResult.newRunId())
                .tool(first.tool())
                .workload(first.workload())
                .variant(first.variant())
                .command(first.command())
                .labels(commonLabels(runs))
                .startedAt(earliest(runs))
                .endedAt(latest(runs))
                .measuredSeconds(measured)
                .clients(runs.stream().mapToInt(RunResult::clients).sum())
                .environment(environment(runs))
                .operations(operations(runs))
                .metrics(metrics(runs))
                .phases(TimelineMerge.phases(runs, inputs.origin()))
                .errors(errors(runs))
                .checks(checks(runs))
                .mergedRunIds(inputs.runIds())
                .observations(TimelineMerge.observations(runs.stream().map(RunResult::observations).toList()))
                .gauges(gauges)
                .roles(roles(runs))
                .disruptions(disruptions(runs, inputs.origin()));
        Timeline timeline = timeline(runs, timelines, inputs.origin(), gauges, timelineFile, merged);
        RunResult result = merged.build();
        RecoveryRule rule = runs.stream().map(RunResult::recoveryRule).filter(Objects::nonNull).findFirst()
                .orElse(null);
        if (rule != null) {
            result = RecoveryAnalysis.apply(result, timeline, rule);
        }
        result = result.toBuilder().parameters(parameters(runs, result.metrics().keySet(), inputs.share())).build();
        RunResult whole = result;
        return result.toBuilder().objectives(objectives(first).stream().map(o -> o.judge(whole)).toList()).build();
    }

    /**
     * The objectives the drivers were given ({@code --slo}, the same on each), judged again on the merged result: a
     * percentile of the whole run is read from the merged histograms, never from the drivers' own verdicts.
     */
    private static List<Objective> objectives(RunResult first) {
        try {
            return Objective.parseAll(first.objectives().stream().map(ObjectiveOutcome::objective).toList());
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException("an objective in the results is not one: " + e.getMessage());
        }
    }

    /**
     * The merged intervals into {@code merged}: written to {@code file} and kept downsampled when every input's
     * timeline is whole and there is a file, else kept as they are. The merged timeline, to read again.
     */
    private static Timeline timeline(List<RunResult> runs, List<Timeline> timelines, double origin,
                                     Map<String, GaugeSummary> gauges, Path file, RunResult.Builder merged) {
        Map<String, GaugeInfo.Merge> rules = gaugeRules(runs);
        if (file == null || timelines.stream().anyMatch(Timeline::downsampled)) {
            List<Interval> intervals = new ArrayList<>();
            TimelineMerge.intervals(runs, timelines, origin, rules, intervals::add);
            merged.intervals(intervals);
            return Timeline.of(intervals);
        }
        double period = TimelineMerge.period(timelines);
        double planned = 0;
        for (RunResult r : runs) {
            double start = MergeInputs.startedAtSeconds(r) - origin;
            planned = Math.max(planned, start + r.phases().stream().mapToDouble(Phase::endSeconds).max().orElse(0));
        }
        InlineIntervals inline = new InlineIntervals(period, planned, name -> gauges.containsKey(name)
                ? gauges.get(name).declared().kind() : GaugeInfo.Kind.LEVEL);
        long count;
        try (TimelineFile.Writer writer = TimelineFile.create(file)) {
            TimelineMerge.intervals(runs, timelines, origin, rules, i -> {
                writer.append(i);
                inline.add(i);
            });
            count = writer.count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the merged timeline " + file + ": " + e.getMessage(), e);
        }
        // Named as it will be beside the merged result.json, wherever it is written first.
        merged.intervals(inline.intervals()).fullTimeline(new FullTimeline(TimelineFile.NAME, count));
        return new Timeline() {
            @Override
            public long size() {
                return count;
            }

            @Override
            public Timeline.Cursor open() {
                return TimelineFile.open(file);
            }

            @Override
            public boolean downsampled() {
                return false;
            }
        };
    }

    /**
     * The disruptions on the merged timeline: every one an input injected, as that input recorded it (actual times,
     * outcome, notes); one only planned in an input ({@link DisruptionRecord#PLANNED}: another process of the run
     * injected it) stands for the injecting input's record of its name, and is kept only where no input has one.
     */
    private static List<DisruptionRecord> disruptions(List<RunResult> runs, double origin) {
        List<DisruptionRecord> injected = new ArrayList<>();
        Map<String, DisruptionRecord> planned = new LinkedHashMap<>();
        for (RunResult r : runs) {
            double shift = MergeInputs.startedAtSeconds(r) - origin;
            for (DisruptionRecord d : r.disruptions()) {
                if (d.injected()) {
                    injected.add(d.shifted(shift));
                } else {
                    planned.putIfAbsent(d.name(), d.shifted(shift));
                }
            }
        }
        Set<String> done = injected.stream().map(DisruptionRecord::name).collect(Collectors.toSet());
        List<DisruptionRecord> all = new ArrayList<>(injected);
        planned.values().stream().filter(d -> !done.contains(d.name())).forEach(all::add);
        all.sort(Comparator.comparingDouble(DisruptionRecord::plannedStartSeconds));
        return all;
    }

    /** The labels every process carries with the same value; one that differs describes no single run. */
    private static Map<String, String> commonLabels(List<RunResult> runs) {
        Map<String, String> common = new java.util.LinkedHashMap<>(runs.get(0).labels());
        runs.forEach(r -> common.entrySet().removeIf(e -> !e.getValue().equals(r.labels().get(e.getKey()))));
        return common;
    }

    // ---- operations ----

    private static List<OperationResult> operations(List<RunResult> runs) {
        Map<String, List<OperationResult>> byName = new LinkedHashMap<>();
        runs.forEach(r -> r.operations().forEach(o -> byName.computeIfAbsent(o.name(), k -> new ArrayList<>()).add(o)));
        List<OperationResult> merged = new ArrayList<>();
        byName.forEach((name, parts) -> {
            Histogram h = Histograms.sum(parts.stream().map(OperationResult::histogram).toList());
            long count = sum(parts, OperationResult::count);
            double recordedRate = parts.stream().mapToDouble(OperationResult::opsPerSecond).sum();
            merged.add(new OperationResult(name, count, sum(parts, OperationResult::errors),
                    sum(parts, OperationResult::retries), recordedRate,
                    LatencySummary.of(h), HistogramCodec.encode(h),
                    timing(parts, OperationResult::serviceTime), timing(parts, OperationResult::poolWait),
                    timing(parts, OperationResult::failed), sum(parts, OperationResult::unissued),
                    timing(parts, OperationResult::unissuedLowerBound), sum(parts, OperationResult::reconnects),
                    sum(parts, OperationResult::clampedValues), counters(parts)));
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
    private static Timing timing(List<OperationResult> parts, Function<OperationResult, Timing> field) {
        List<Timing> present = parts.stream().map(field).filter(Objects::nonNull).toList();
        if (present.isEmpty() || present.stream().anyMatch(t -> t.histogram() == null)) {
            return null;
        }
        return Timing.of(Histograms.sum(present.stream().map(Timing::histogram).toList()));
    }

    private static <T> long sum(List<T> parts, ToLongFunction<T> field) {
        return parts.stream().mapToLong(field).sum();
    }

    // ---- roles and gauges ----

    /** Each role's clients, rate, issued and unissued operations add up across processes, and so do their rates. */
    private static List<RoleResult> roles(List<RunResult> runs) {
        Map<String, List<RoleResult>> byName = new LinkedHashMap<>();
        runs.forEach(r -> r.roles().forEach(role -> byName.computeIfAbsent(role.name(), k -> new ArrayList<>()).add(role)));
        List<RoleResult> merged = new ArrayList<>();
        byName.forEach((name, parts) -> {
            long issued = sum(parts, RoleResult::issued);
            merged.add(new RoleResult(name, parts.stream().mapToInt(RoleResult::clients).sum(),
                    parts.stream().mapToDouble(RoleResult::rate).sum(), issued, sum(parts, RoleResult::unissued),
                    parts.stream().mapToDouble(RoleResult::issuedPerSecond).sum(), parts.get(0).after(), parts.stream()
                    .map(RoleResult::startedAt).filter(java.util.Objects::nonNull).max(Double::compare).orElse(null)));
        });
        return merged;
    }

    /** Each gauge's merge rule, as the processes' summaries declare it (undeclared: summed). */
    private static Map<String, GaugeInfo.Merge> gaugeRules(List<RunResult> runs) {
        Map<String, GaugeInfo.Merge> rules = new TreeMap<>();
        runs.forEach(r -> r.gauges().forEach((name, g) -> rules.putIfAbsent(name, g.declared().merge())));
        return rules;
    }

    /** Each gauge's summaries over the processes, merged by its declared rule. */
    private static Map<String, GaugeSummary> gaugeSummaries(List<RunResult> runs) {
        Map<String, List<GaugeSummary>> byName = new TreeMap<>();
        runs.forEach(r -> r.gauges().forEach((name, g) -> byName.computeIfAbsent(name, k -> new ArrayList<>()).add(g)));
        Map<String, GaugeSummary> merged = new TreeMap<>();
        byName.forEach((name, parts) -> merged.put(name, GaugeSummary.merge(parts)));
        return merged;
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

    /** Metrics every input has and every input declared additive, summed; the rest cannot be merged. */
    /** The middle value (the mean of the middle two for an even count): one process's misreading does not move it. */
    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Each metric that every input has, with one merge rule, merged by it ({@link MetricInfo.Merge}). */
    private static Metrics metrics(List<RunResult> runs) {
        Metrics merged = new Metrics();
        long operations = runs.stream().mapToLong(RunResult::totalCount).sum();
        for (String name : runs.get(0).metrics().keySet()) {
            MetricInfo info = runs.get(0).metricInfo(name);
            boolean everywhere = runs.stream().allMatch(r -> r.metrics().get(name) != null
                    && r.metricInfo(name).merge() == info.merge());
            if (!everywhere) {
                continue;
            }
            double[] values = runs.stream().mapToDouble(r -> r.metrics().get(name)).toArray();
            // each process's value times its completed operations: its own total (or the server's, seen by it)
            double[] totals = runs.stream().mapToDouble(r -> r.metrics().get(name) * r.totalCount()).toArray();
            Double value = switch (info.merge()) {
                case SUM -> java.util.Arrays.stream(values).sum();
                case SERVER -> median(values);
                case PER_OPERATION -> operations > 0 ? java.util.Arrays.stream(totals).sum() / operations : null;
                case SERVER_PER_OPERATION -> operations > 0 ? median(totals) / operations : null;
                case MAX -> java.util.Arrays.stream(values).max().orElse(0);
                case NONE -> null;
            };
            if (value != null) {
                merged.add(name, value, info);
            }
        }
        return merged;
    }

    private static Map<String, Object> parameters(List<RunResult> runs, Set<String> metrics, WorkerShare share) {
        Map<String, Object> params = new LinkedHashMap<>(runs.get(0).parameters());
        if (share != null) {
            params.put(WorkerShare.PARAMETER, share.label());
            params.put("clients", runs.stream().mapToInt(RunResult::clients).sum());
        }
        params.remove(DROPPED_METRICS);
        params.remove(DIFFERING_PARAMETERS);
        params.put(MERGED_FROM, runs.stream().mapToLong(ResultMerge::processes).sum());
        Set<String> dropped = new TreeSet<>();
        runs.forEach(r -> dropped.addAll(r.metrics().keySet()));
        dropped.removeAll(metrics);
        if (!dropped.isEmpty()) {
            params.put(DROPPED_METRICS, String.join(", ", dropped));
        }
        Set<String> keys = new TreeSet<>();
        runs.forEach(r -> keys.addAll(r.parameters().keySet()));
        keys.remove(MERGED_FROM);
        keys.remove(WorkerShare.PARAMETER);
        if (share != null) {
            keys.remove("clients");
        }
        keys.remove(RecoveredRun.INCOMPLETE);
        keys.remove("stopReason");
        List<String> incomplete = new ArrayList<>();
        for (RunResult r : runs) {
            if (r.parameters().get(RecoveredRun.INCOMPLETE) != null) {
                incomplete.add(Objects.toString(r.parameters().get(WorkerShare.PARAMETER), r.runId()) + ": "
                        + r.parameters().get(RecoveredRun.INCOMPLETE));
            }
        }
        params.remove(RecoveredRun.INCOMPLETE);
        if (!incomplete.isEmpty()) {
            params.put(RecoveredRun.INCOMPLETE, incomplete.size() + " of " + runs.size() + " input(s) " + (incomplete
                    .size() == 1 ? "is" : "are") + " the recovered part of a driver that died (" + String.join("; ",
                    incomplete) + ")");
        }
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

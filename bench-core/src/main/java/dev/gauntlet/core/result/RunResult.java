package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run, as data: the public result format ({@code result.json}). Reports, comparisons and merges are
 * functions of this record alone, so an old run can be re-rendered without its database.
 *
 * <p>Version history: 1 = first release; 2 = {@code runId} and {@code mergedRunIds} (so a merge can tell the same
 * run given twice), {@code metricInfo} (each metric's direction and whether it adds up across processes), and per
 * operation {@code unissued}, {@code unissuedLowerBound}, {@code failed}, {@code reconnects} and
 * {@code clampedValues}; {@code observations} (latencies operations observed, e.g. end to end, as distributions) and
 * {@code gauges} (values operations reported, e.g. lag), also per interval, and per-interval operation
 * {@code counters}; {@code roles} (each kind of client's pacing, issued and unissued operations); per phase
 * {@code measured}, {@code operations} and {@code probes}; {@code disruptions} (what each planned disruption did).
 * Readers accept every version up to {@link #SCHEMA_VERSION} and ignore fields they do not
 * know, so a newer writer's additions do not break an older reader; a version 1 file reads with no run id and
 * undeclared metrics (compared without a winner, not merged).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(
        int schemaVersion,
        String runId,
        Tool tool,
        String workload,
        String variant,
        String command,
        String startedAt,
        String endedAt,
        double measuredSeconds,
        int clients,
        Environment environment,
        Map<String, Object> parameters,
        List<OperationResult> operations,
        Map<String, Double> metrics,
        Map<String, MetricInfo> metricInfo,
        List<Interval> intervals,
        List<Phase> phases,
        List<ErrorCount> errors,
        List<Check> checks,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> mergedRunIds,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Timing> observations,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, GaugeSummary> gauges,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RoleResult> roles,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<DisruptionRecord> disruptions) {

    public static final int SCHEMA_VERSION = 2;

    /** A new run's identity: unique across machines, so a merge recognises the same run given twice. */
    public static String newRunId() {
        return java.util.UUID.randomUUID().toString();
    }

    public RunResult {
        // Insertion order is kept, so result.json, reports and summaries list things as the workload gave them.
        parameters = parameters == null ? Map.of() : ordered(parameters);
        operations = operations == null ? List.of() : List.copyOf(operations);
        metrics = metrics == null ? Map.of() : ordered(metrics);
        metricInfo = metricInfo == null ? Map.of() : ordered(metricInfo);
        intervals = intervals == null ? List.of() : List.copyOf(intervals);
        phases = phases == null ? List.of() : List.copyOf(phases);
        errors = errors == null ? List.of() : List.copyOf(errors);
        checks = checks == null ? List.of() : List.copyOf(checks);
        mergedRunIds = mergedRunIds == null ? List.of() : List.copyOf(mergedRunIds);
        observations = observations == null ? Map.of() : ordered(observations);
        gauges = gauges == null ? Map.of() : ordered(gauges);
        roles = roles == null ? List.of() : List.copyOf(roles);
        disruptions = disruptions == null ? List.of() : List.copyOf(disruptions);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(map));
    }

    public Optional<OperationResult> operation(String name) {
        return operations.stream().filter(o -> o.name().equals(name)).findFirst();
    }

    /**
     * Committed executions of {@code operation} over the whole run, unmeasured phases (warm-up) included: what the
     * data saw, for checks that compare the data with the run. Results without phases: the measured count.
     */
    public long committedOverall(String operation) {
        if (phases.isEmpty()) {
            return operation(operation).map(OperationResult::count).orElse(0L);
        }
        return phases.stream().map(p -> p.operations().get(operation)).filter(java.util.Objects::nonNull)
                .mapToLong(IntervalOperation::count).sum();
    }

    public long totalCount() {
        return operations.stream().mapToLong(OperationResult::count).sum();
    }

    /**
     * Failures that ended an operation; entries of class {@value ErrorCount#RETRIED} (retried attempts) and
     * {@value ErrorCount#RECONNECT} (failed attempts to re-open a session) are not errors.
     */
    public long totalErrors() {
        return errors.stream().filter(ErrorCount::endedAnOperation).mapToLong(ErrorCount::count).sum();
    }

    /** The measured phase, if the run got that far. */
    public Optional<Phase> measurePhase() {
        return phases.stream().filter(p -> Phase.MEASURE.equals(p.name())).findFirst();
    }

    /**
     * How much a phase probe rose over the measured phases (e.g. {@code walBytes}); empty when no measured phase has
     * a reading of it.
     */
    public Optional<Long> measuredProbe(String probe) {
        List<Long> readings = phases.stream().filter(Phase::isMeasured).map(p -> p.probe(probe))
                .filter(java.util.Objects::nonNull).toList();
        return readings.isEmpty() ? Optional.empty() : Optional.of(readings.stream().mapToLong(Long::longValue).sum());
    }

    /** Operations due before the end that never completed (see {@link OperationResult#unissued()}). */
    public long totalUnissued() {
        return operations.stream().mapToLong(OperationResult::unissued).sum();
    }

    public long totalRetries() {
        return operations.stream().mapToLong(OperationResult::retries).sum();
    }

    /** PASS when every check passed or was skipped, FAIL when any failed, null when no check ran. */
    public Check.Status checkStatus() {
        if (checks.isEmpty()) {
            return null;
        }
        return checks.stream().anyMatch(c -> c.status() == Check.Status.FAIL) ? Check.Status.FAIL : Check.Status.PASS;
    }

    /** How to read a metric: as declared by the workload, or {@link MetricInfo#UNDECLARED} (older results). */
    public MetricInfo metricInfo(String metric) {
        return metricInfo.getOrDefault(metric, MetricInfo.UNDECLARED);
    }

    /**
     * The runs this result stands for: the driver processes a merge combined, else this run alone (nothing for a
     * version 1 result, which has no id).
     */
    public List<String> leafRunIds() {
        if (!mergedRunIds.isEmpty()) {
            return mergedRunIds;
        }
        return runId == null ? List.of() : List.of(runId);
    }

    /** A copy with derived figures (metrics and checks) added by the workload after the run. */
    public RunResult withMetricsAndChecks(Metrics newMetrics, List<Check> newChecks) {
        return new RunResult(schemaVersion, runId, tool, workload, variant, command, startedAt, endedAt,
                measuredSeconds, clients, environment, parameters, operations, newMetrics.values(), newMetrics.info(),
                intervals, phases, errors, newChecks, mergedRunIds, observations, gauges, roles, disruptions);
    }

    /** A copy whose disruption records are replaced (e.g. with their recovery verdicts). */
    public RunResult withDisruptions(List<DisruptionRecord> newDisruptions) {
        return new RunResult(schemaVersion, runId, tool, workload, variant, command, startedAt, endedAt,
                measuredSeconds, clients, environment, parameters, operations, metrics, metricInfo, intervals, phases,
                errors, checks, mergedRunIds, observations, gauges, roles, newDisruptions);
    }
}

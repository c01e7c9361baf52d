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
 * {@code measured}, {@code operations} and {@code probes}; {@code disruptions} (what each planned disruption did);
 * {@code labels} (the user's names for the run, {@code --label release=25.2}; added later in version 2, which older
 * readers ignore); {@code fullTimeline} (the file beside the result holding every reporting interval, which
 * {@code intervals} keeps downsampled in a long run, see {@link InlineIntervals}; added later in version 2, as are the
 * intervals' {@code merged} and {@code unavailable}); {@code recoveryRule} (how a run through faults judged
 * recovery, so a merge judges it again; added later in version 2) and a disruption's outcome {@code planned} (a
 * driver process that did not inject it).
 * Readers accept every version up to {@link #SCHEMA_VERSION} and ignore fields they do not
 * know, so a newer writer's additions do not break an older reader; a version 1 file reads with no run id and
 * undeclared metrics (compared without a winner, not merged).
 *
 * <p>Code makes one with {@link #builder()}, naming each field it sets, and copies one with a field changed with
 * {@link #toBuilder()}, e.g. {@code result.toBuilder().checks(checks).build()}; the canonical constructor is for
 * Jackson, which reads {@code result.json} through it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(
        int schemaVersion,
        String runId,
        Tool tool,
        String workload,
        String variant,
        String command,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> labels,
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
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<DisruptionRecord> disruptions,
        RecoveryRule recoveryRule,
        FullTimeline fullTimeline,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ObjectiveOutcome> objectives) {

    public static final int SCHEMA_VERSION = 2;

    /** A new run's identity: unique across machines, so a merge recognises the same run given twice. */
    public static String newRunId() {
        return java.util.UUID.randomUUID().toString();
    }

    public RunResult {
        // Insertion order is kept, so result.json, reports and summaries list things as the workload gave them.
        labels = labels == null ? Map.of() : ordered(labels);
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
        objectives = objectives == null ? List.of() : List.copyOf(objectives);
    }

    /** Whether the run was given objectives and missed any. */
    public boolean missedAnObjective() {
        return objectives.stream().anyMatch(o -> !o.met());
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

    /**
     * The reporting intervals of the run: as many as its full timeline holds, else as many as its intervals stand
     * for.
     */
    public long reportingIntervals() {
        if (fullTimeline != null) {
            return fullTimeline.intervals();
        }
        return intervals.stream().mapToLong(Interval::reportingIntervals).sum();
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

    /**
     * A result to fill in, field by field: of the current {@link #SCHEMA_VERSION}, with no run id (give one, usually
     * {@link #newRunId()}), every list and map empty, and every other field null or zero until set.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this result's fields, to make a copy with some of them changed (the workload's metrics and
     * checks added after the run, disruption records with their recovery verdicts).
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.schemaVersion = schemaVersion;
        b.runId = runId;
        b.tool = tool;
        b.workload = workload;
        b.variant = variant;
        b.command = command;
        b.labels = labels;
        b.startedAt = startedAt;
        b.endedAt = endedAt;
        b.measuredSeconds = measuredSeconds;
        b.clients = clients;
        b.environment = environment;
        b.parameters = parameters;
        b.operations = operations;
        b.metrics = metrics;
        b.metricInfo = metricInfo;
        b.intervals = intervals;
        b.phases = phases;
        b.errors = errors;
        b.checks = checks;
        b.mergedRunIds = mergedRunIds;
        b.observations = observations;
        b.gauges = gauges;
        b.roles = roles;
        b.disruptions = disruptions;
        b.recoveryRule = recoveryRule;
        b.fullTimeline = fullTimeline;
        b.objectives = objectives;
        return b;
    }

    /** A {@link RunResult} under construction; see {@link RunResult#builder()}. Each setter names a field. */
    public static final class Builder {

        private int schemaVersion = SCHEMA_VERSION;
        private String runId;
        private Tool tool;
        private String workload;
        private String variant;
        private String command;
        private Map<String, String> labels = Map.of();
        private String startedAt;
        private String endedAt;
        private double measuredSeconds;
        private int clients;
        private Environment environment;
        private Map<String, Object> parameters = Map.of();
        private List<OperationResult> operations = List.of();
        private Map<String, Double> metrics = Map.of();
        private Map<String, MetricInfo> metricInfo = Map.of();
        private List<Interval> intervals = List.of();
        private List<Phase> phases = List.of();
        private List<ErrorCount> errors = List.of();
        private List<Check> checks = List.of();
        private List<String> mergedRunIds = List.of();
        private Map<String, Timing> observations = Map.of();
        private Map<String, GaugeSummary> gauges = Map.of();
        private List<RoleResult> roles = List.of();
        private List<DisruptionRecord> disruptions = List.of();
        private RecoveryRule recoveryRule;
        private FullTimeline fullTimeline;
        private List<ObjectiveOutcome> objectives = List.of();

        private Builder() {
        }

        public Builder schemaVersion(int schemaVersion) {
            this.schemaVersion = schemaVersion;
            return this;
        }

        public Builder runId(String runId) {
            this.runId = runId;
            return this;
        }

        public Builder tool(Tool tool) {
            this.tool = tool;
            return this;
        }

        public Builder workload(String workload) {
            this.workload = workload;
            return this;
        }

        public Builder variant(String variant) {
            this.variant = variant;
            return this;
        }

        public Builder command(String command) {
            this.command = command;
            return this;
        }

        /** What the user called the run ({@code --label release=25.2}), for history to group and read it by. */
        public Builder labels(Map<String, String> labels) {
            this.labels = labels;
            return this;
        }

        public Builder startedAt(String startedAt) {
            this.startedAt = startedAt;
            return this;
        }

        public Builder endedAt(String endedAt) {
            this.endedAt = endedAt;
            return this;
        }

        public Builder measuredSeconds(double measuredSeconds) {
            this.measuredSeconds = measuredSeconds;
            return this;
        }

        public Builder clients(int clients) {
            this.clients = clients;
            return this;
        }

        public Builder environment(Environment environment) {
            this.environment = environment;
            return this;
        }

        public Builder parameters(Map<String, Object> parameters) {
            this.parameters = parameters;
            return this;
        }

        public Builder operations(List<OperationResult> operations) {
            this.operations = operations;
            return this;
        }

        public Builder metrics(Map<String, Double> metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder metricInfo(Map<String, MetricInfo> metricInfo) {
            this.metricInfo = metricInfo;
            return this;
        }

        public Builder intervals(List<Interval> intervals) {
            this.intervals = intervals;
            return this;
        }

        public Builder phases(List<Phase> phases) {
            this.phases = phases;
            return this;
        }

        public Builder errors(List<ErrorCount> errors) {
            this.errors = errors;
            return this;
        }

        public Builder checks(List<Check> checks) {
            this.checks = checks;
            return this;
        }

        public Builder mergedRunIds(List<String> mergedRunIds) {
            this.mergedRunIds = mergedRunIds;
            return this;
        }

        public Builder observations(Map<String, Timing> observations) {
            this.observations = observations;
            return this;
        }

        public Builder gauges(Map<String, GaugeSummary> gauges) {
            this.gauges = gauges;
            return this;
        }

        public Builder roles(List<RoleResult> roles) {
            this.roles = roles;
            return this;
        }

        public Builder disruptions(List<DisruptionRecord> disruptions) {
            this.disruptions = disruptions;
            return this;
        }

        /** How the disruptions' recovery was judged (a run through faults), so it can be judged again. */
        public Builder recoveryRule(RecoveryRule recoveryRule) {
            this.recoveryRule = recoveryRule;
            return this;
        }

        /** Where every reporting interval is when {@code intervals} keeps them downsampled (null: nowhere else). */
        /** How the run stood against its objectives ({@code --slo}). */
        public Builder objectives(List<ObjectiveOutcome> objectives) {
            this.objectives = objectives;
            return this;
        }

        public Builder fullTimeline(FullTimeline fullTimeline) {
            this.fullTimeline = fullTimeline;
            return this;
        }

        /** Both {@code metrics} and {@code metricInfo}: the values with how each is read. */
        public Builder metrics(Metrics metrics) {
            this.metrics = metrics.values();
            this.metricInfo = metrics.info();
            return this;
        }

        public RunResult build() {
            return new RunResult(schemaVersion, runId, tool, workload, variant, command, labels, startedAt, endedAt,
                    measuredSeconds, clients, environment, parameters, operations, metrics, metricInfo, intervals,
                    phases, errors, checks, mergedRunIds, observations, gauges, roles, disruptions, recoveryRule,
                    fullTimeline, objectives);
        }
    }
}

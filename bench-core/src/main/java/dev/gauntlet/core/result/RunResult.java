package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run, as data: the public result format ({@code result.json}). Reports, comparisons and merges are
 * functions of this record alone, so an old run can be re-rendered without its database.
 *
 * <p>Version history: 1 = first release. Readers accept every version up to {@link #SCHEMA_VERSION} and
 * ignore fields they do not know, so a newer writer's additions do not break an older reader.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(
        int schemaVersion,
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
        List<Interval> intervals,
        List<Phase> phases,
        List<ErrorCount> errors,
        List<Check> checks) {

    public static final int SCHEMA_VERSION = 1;

    public RunResult {
        // Insertion order is kept, so result.json, reports and summaries list things as the workload gave them.
        parameters = parameters == null ? Map.of() : ordered(parameters);
        operations = operations == null ? List.of() : List.copyOf(operations);
        metrics = metrics == null ? Map.of() : ordered(metrics);
        intervals = intervals == null ? List.of() : List.copyOf(intervals);
        phases = phases == null ? List.of() : List.copyOf(phases);
        errors = errors == null ? List.of() : List.copyOf(errors);
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(map));
    }

    public Optional<OperationResult> operation(String name) {
        return operations.stream().filter(o -> o.name().equals(name)).findFirst();
    }

    public long totalCount() {
        return operations.stream().mapToLong(OperationResult::count).sum();
    }

    /** Failures that ended an operation; entries of class {@value ErrorCount#RETRIED} are retried attempts, not errors. */
    public long totalErrors() {
        return errors.stream().filter(e -> !e.isRetry()).mapToLong(ErrorCount::count).sum();
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

    /** A copy with derived figures (metrics and checks) added by the workload after the run. */
    public RunResult withMetricsAndChecks(Map<String, Double> newMetrics, List<Check> newChecks) {
        return new RunResult(schemaVersion, tool, workload, variant, command, startedAt, endedAt, measuredSeconds,
                clients, environment, parameters, operations, newMetrics, intervals, phases, errors, newChecks);
    }
}

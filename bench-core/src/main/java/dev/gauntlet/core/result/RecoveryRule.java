package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * When a workload counts as recovered from a disruption (a plan's {@code recovery}): the rolling throughput of
 * {@code operation} (null: all operations) over {@code windowSeconds} back inside the range the
 * {@code baselinePhase}'s own windows held (at least the lower of {@code 1 - tolerance} times its mean and its
 * 10th-percentile window; p95 at most the higher of {@code latencyFactor} times its p95 and its 90th-percentile
 * window), and staying there for {@code holdSeconds} as often as the baseline's windows did (the report package's
 * {@code RecoveryAnalysis} applies it). A disruption's recovery is awaited until the end of the phase it ended in and of the
 * {@code recoveryPhases} right after it (a plan's phases {@code until: recovered}: they exist to let it recover).
 *
 * <p>A run through faults records it in its result ({@code recoveryRule}), so its recovery can be judged again from
 * the result alone: {@code report merge} judges the merged timeline of several driver processes by it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoveryRule(String baselinePhase, String operation, double windowSeconds, double holdSeconds,
                           double tolerance, double latencyFactor,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> recoveryPhases) {

    public static final Duration WINDOW = Duration.ofSeconds(10);
    public static final Duration HOLD = Duration.ofSeconds(30);
    public static final double TOLERANCE = 0.10;
    public static final double LATENCY_FACTOR = 2.0;

    public RecoveryRule {
        recoveryPhases = recoveryPhases == null ? List.of() : List.copyOf(recoveryPhases);
    }

    /** The rule with no recovery phases. */
    public static RecoveryRule of(String baselinePhase, String operation, Duration window, Duration hold,
                                  double tolerance, double latencyFactor) {
        return new RecoveryRule(baselinePhase, operation, window.toNanos() / 1e9, hold.toNanos() / 1e9, tolerance,
                latencyFactor, List.of());
    }

    /** This rule, recovery awaited through {@code phases} too when they follow a disruption's phase. */
    public RecoveryRule throughPhases(Collection<String> phases) {
        return new RecoveryRule(baselinePhase, operation, windowSeconds, holdSeconds, tolerance, latencyFactor,
                List.copyOf(phases));
    }

    /** The rolling window. */
    public Duration window() {
        return Duration.ofNanos(Math.round(windowSeconds * 1e9));
    }

    /** How long the workload must stay back. */
    public Duration hold() {
        return Duration.ofNanos(Math.round(holdSeconds * 1e9));
    }
}

package dev.gauntlet.sql.adversity;

import java.time.Duration;

/**
 * When a workload counts as recovered from a disruption: the {@code window} rolling throughput of {@code operation}
 * (null: all operations) within {@code tolerance} of the baseline phase's, and its p95 at most {@code latencyFactor}
 * times the baseline's, both held for {@code hold}.
 */
public record RecoveryRule(String baselinePhase, String operation, Duration window, Duration hold, double tolerance,
                           double latencyFactor) {

    public static final Duration WINDOW = Duration.ofSeconds(10);
    public static final Duration HOLD = Duration.ofSeconds(30);
    public static final double TOLERANCE = 0.10;
    public static final double LATENCY_FACTOR = 2.0;
}

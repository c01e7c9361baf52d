package dev.gauntlet.core.run;

import java.time.Duration;

/**
 * Everything about how a run is paced, fixed before it starts.
 *
 * @param clients          simulated clients (not threads)
 * @param workers          threads that execute operations; waiting clients hold none
 * @param duration         measured time after warm-up; null when the run is bounded by {@code iterations}
 * @param iterations       operations per client (warm-up included); 0 when bounded by {@code duration}
 * @param warmup           time at the start whose operations are excluded from results
 * @param ramp             clients start evenly spread over this time
 * @param rate             open loop: intended operations per second across all clients; 0 = closed loop
 * @param reportEvery      progress and interval-log period
 * @param maxAttempts      attempts per operation on retryable failures (1 = no retry)
 * @param seed             seed for the clients' random generators
 */
public record RunPlan(int clients, int workers, Duration duration, long iterations, Duration warmup,
                      Duration ramp, double rate, Duration reportEvery, int maxAttempts, long seed) {

    public RunPlan {
        require(clients >= 1, "clients must be at least 1 (got " + clients + ")");
        require(workers >= 1, "workers must be at least 1 (got " + workers + ")");
        require(duration == null || !duration.isNegative() && !duration.isZero(), "duration must be positive");
        require(iterations >= 0, "iterations must not be negative");
        require(duration != null || iterations > 0, "give a duration or an iteration count");
        require(!warmup.isNegative(), "warm-up must not be negative");
        require(!ramp.isNegative(), "ramp must not be negative");
        require(rate >= 0 && Double.isFinite(rate), "rate must be a positive number of operations per second");
        require(!reportEvery.isNegative() && !reportEvery.isZero(), "report interval must be positive");
        require(maxAttempts >= 1, "max attempts must be at least 1");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    public boolean openLoop() {
        return rate > 0;
    }

    /** A plan with sensible defaults: closed loop, no warm-up or ramp, 10 s reports, 10 attempts. */
    public static RunPlan closedLoop(int clients, Duration duration) {
        return new RunPlan(clients, Math.min(clients, 512), duration, 0, Duration.ZERO, Duration.ZERO, 0,
                Duration.ofSeconds(10), 10, 42);
    }

    public RunPlan withWarmup(Duration newWarmup) {
        return new RunPlan(clients, workers, duration, iterations, newWarmup, ramp, rate, reportEvery,
                maxAttempts, seed);
    }

    public RunPlan withReportEvery(Duration every) {
        return new RunPlan(clients, workers, duration, iterations, warmup, ramp, rate, every, maxAttempts, seed);
    }

    public RunPlan withRate(double opsPerSecond) {
        return new RunPlan(clients, workers, duration, iterations, warmup, ramp, opsPerSecond, reportEvery,
                maxAttempts, seed);
    }

    public RunPlan withIterations(long perClient) {
        return new RunPlan(clients, workers, null, perClient, warmup, ramp, rate, reportEvery, maxAttempts, seed);
    }

    public RunPlan withClients(int newClients) {
        return new RunPlan(newClients, workers, duration, iterations, warmup, ramp, rate, reportEvery, maxAttempts,
                seed);
    }

    public RunPlan withWorkers(int threads) {
        return new RunPlan(clients, threads, duration, iterations, warmup, ramp, rate, reportEvery,
                maxAttempts, seed);
    }
}

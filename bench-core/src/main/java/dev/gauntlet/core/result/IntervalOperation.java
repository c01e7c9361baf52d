package dev.gauntlet.core.result;

/** One operation within one reporting interval; the encoded histogram lets merges stay exact. */
public record IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                                long errors, long retries, String histogram) {
}

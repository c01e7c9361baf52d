package dev.gauntlet.core.result;

import org.HdrHistogram.Histogram;

/** Latency figures in milliseconds, read from a nanosecond histogram (never averaged across histograms). */
public record LatencySummary(double mean, double p50, double p90, double p95, double p99, double p999, double max) {

    private static final double NANOS_PER_MS = 1_000_000.0;

    public static LatencySummary of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(
                h.getMean() / NANOS_PER_MS,
                h.getValueAtPercentile(50) / NANOS_PER_MS,
                h.getValueAtPercentile(90) / NANOS_PER_MS,
                h.getValueAtPercentile(95) / NANOS_PER_MS,
                h.getValueAtPercentile(99) / NANOS_PER_MS,
                h.getValueAtPercentile(99.9) / NANOS_PER_MS,
                h.getMaxValue() / NANOS_PER_MS);
    }
}

package dev.gauntlet.core.result;

/**
 * A secondary distribution of an operation: service time (from actual start, beside the latency measured
 * from the intended start) or the time spent waiting for a pooled connection.
 */
public record Timing(long count, LatencySummary latencyMs, String histogram) {

    public static Timing of(org.HdrHistogram.Histogram h) {
        return h.getTotalCount() == 0 ? null
                : new Timing(h.getTotalCount(), LatencySummary.of(h), HistogramCodec.encode(h));
    }
}

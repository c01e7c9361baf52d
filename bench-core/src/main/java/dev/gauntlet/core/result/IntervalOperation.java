package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;

/**
 * One operation within one reporting interval; the encoded histogram lets merges stay exact. {@code counters} are
 * what its committed executions counted in this interval (e.g. messages), so rates of what was done, not only of
 * operations, can be drawn over time. {@code p90} is absent from results written before it was recorded.
 */
public record IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                                long errors, long retries, String histogram,
                                @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> counters,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double p90) {

    public IntervalOperation {
        counters = counters == null ? Map.of() : new TreeMap<>(counters);
    }

    /** An interval operation without counters. */
    public IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                             long errors, long retries, String histogram) {
        this(count, opsPerSecond, p50, p95, p99, max, errors, retries, histogram, Map.of(), null);
    }

    /** An interval operation with counters and no p90 (as results before it). */
    public IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                             long errors, long retries, String histogram, Map<String, Long> counters) {
        this(count, opsPerSecond, p50, p95, p99, max, errors, retries, histogram, counters, null);
    }

    /** The figures of {@code latency} (nanoseconds) over {@code seconds}, its histogram encoded. */
    public static IntervalOperation of(org.HdrHistogram.Histogram latency, double seconds, long errors, long retries,
                                       Map<String, Long> counters) {
        LatencySummary l = LatencySummary.of(latency);
        long count = latency.getTotalCount();
        return new IntervalOperation(count, seconds > 0 ? count / seconds : 0, l.p50(), l.p95(), l.p99(), l.max(),
                errors, retries, HistogramCodec.encode(latency), counters, l.p90());
    }
}

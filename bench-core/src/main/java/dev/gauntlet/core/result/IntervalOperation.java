package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;

/**
 * One operation within one reporting interval; the encoded histogram lets merges stay exact. {@code counters} are
 * what its committed executions counted in this interval (e.g. messages), so rates of what was done, not only of
 * operations, can be drawn over time.
 */
public record IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                                long errors, long retries, String histogram,
                                @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> counters) {

    public IntervalOperation {
        counters = counters == null ? Map.of() : new TreeMap<>(counters);
    }

    /** An interval operation without counters. */
    public IntervalOperation(long count, double opsPerSecond, double p50, double p95, double p99, double max,
                             long errors, long retries, String histogram) {
        this(count, opsPerSecond, p50, p95, p99, max, errors, retries, histogram, Map.of());
    }
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;

/**
 * Totals of one operation over the measured phase.
 *
 * <ul>
 *   <li>{@code count}, {@code latencyMs} and {@code histogram}: committed operations, latency measured from each
 *       one's intended start (so queueing shows).</li>
 *   <li>{@code serviceTime}: the same operations from their actual start; {@code poolWait}: the part spent waiting
 *       for a pooled connection (failed borrows included).</li>
 *   <li>{@code errors} and {@code failed}: operations that ended in failure after their last attempt, and their
 *       latency from intended start to failure, so the worst tail is not cut off when the system is overloaded.</li>
 *   <li>{@code unissued} and {@code unissuedLowerBound}: operations that were due before the run ended but never
 *       ran to completion (an open loop's schedule the clients could not keep up with, or an operation waiting for
 *       a worker, a retry or a reconnect when the run ended); each waited at least the end of the run minus its
 *       intended start, which is what the lower-bound histogram holds.</li>
 *   <li>{@code reconnects}: attempts to open a new session after one was lost; not operations, not errors.</li>
 *   <li>{@code clampedValues}: latencies above the histograms' one-hour ceiling, recorded as one hour.</li>
 *   <li>{@code counters}: the operation's own counts of what its committed executions did (e.g.
 *       {@code rolledBack}, {@code orderLines}).</li>
 * </ul>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OperationResult(String name, long count, long errors, long retries, double opsPerSecond,
                              LatencySummary latencyMs, String histogram, Timing serviceTime, Timing poolWait,
                              Timing failed,
                              @JsonInclude(JsonInclude.Include.NON_DEFAULT) long unissued,
                              Timing unissuedLowerBound,
                              @JsonInclude(JsonInclude.Include.NON_DEFAULT) long reconnects,
                              @JsonInclude(JsonInclude.Include.NON_DEFAULT) long clampedValues,
                              @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> counters) {

    public OperationResult {
        counters = counters == null ? Map.of() : new TreeMap<>(counters);
    }

    /** An operation with only the figures every result has (no failures, nothing unissued, no reconnects). */
    public static OperationResult of(String name, long count, long errors, long retries, double opsPerSecond,
                                     LatencySummary latencyMs, String histogram, Timing serviceTime, Timing poolWait,
                                     Map<String, Long> counters) {
        return new OperationResult(name, count, errors, retries, opsPerSecond, latencyMs, histogram, serviceTime,
                poolWait, null, 0, null, 0, 0, counters);
    }

    /** The counter's value, zero when the operation never counted it. */
    public long counter(String counterName) {
        return counters.getOrDefault(counterName, 0L);
    }

    /** Operations that were started or due: committed, failed and unissued. */
    public long attempted() {
        return count + errors + unissued;
    }
}

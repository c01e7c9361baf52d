package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.TreeMap;

/**
 * Totals of one operation over the measured phase. {@code latencyMs} and {@code histogram} are measured from
 * each operation's intended start (so queueing shows); {@code serviceTime} from its actual start;
 * {@code poolWait} is the part spent waiting for a pooled connection; {@code counters} are the operation's
 * own counts of what its committed executions did (e.g. {@code rolledBack}, {@code orderLines}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OperationResult(String name, long count, long errors, long retries, double opsPerSecond,
                              LatencySummary latencyMs, String histogram, Timing serviceTime, Timing poolWait,
                              @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> counters) {

    public OperationResult {
        counters = counters == null ? Map.of() : new TreeMap<>(counters);
    }

    /** The counter's value, zero when the operation never counted it. */
    public long counter(String counterName) {
        return counters.getOrDefault(counterName, 0L);
    }
}

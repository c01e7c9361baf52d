package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Totals of one operation over the measured phase. {@code latencyMs} and {@code histogram} are measured from
 * each operation's intended start (so queueing shows); {@code serviceTime} from its actual start;
 * {@code poolWait} is the part spent waiting for a pooled connection.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OperationResult(String name, long count, long errors, long retries, double opsPerSecond,
                              LatencySummary latencyMs, String histogram, Timing serviceTime, Timing poolWait) {
}

package dev.gauntlet.core.run;

import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import java.time.Instant;
import java.util.List;

/**
 * What the runner measured, before the CLI adds who/where/what (tool, environment, parameters) to make a
 * result.
 *
 * @param stopReason  why the run ended: "duration", "iterations", "interrupted" or "fatal error"
 * @param fatalError  the message of the failure that stopped the run, or null
 */
public record RunRecord(Instant startedAt, Instant endedAt, double measuredSeconds,
                        List<OperationResult> operations, List<Interval> intervals, List<Phase> phases,
                        List<ErrorCount> errors, String stopReason, String fatalError, long unfinishedOperations) {

    public boolean failed() {
        return fatalError != null;
    }
}

package dev.gauntlet.core.run;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RoleResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the runner measured, before the CLI adds who/where/what (tool, environment, parameters) to make a
 * result.
 *
 * @param stopReason  why the run ended: "duration", "iterations", "interrupted" or "fatal error"
 * @param fatalError  the message of the failure that stopped the run, or null
 * @param observations latencies the operations observed (e.g. end to end), over the measured phase, by name
 * @param gauges       values the operations reported (e.g. lag), over the measured phase, by name
 * @param mostScheduleLagNanos the most an open-loop schedule was behind in the measured phases (the age of the oldest
 *                     due operation no client had taken up), sampled; -1 for a closed-loop run
 */
public record RunRecord(Instant startedAt, Instant endedAt, double measuredSeconds,
                        List<OperationResult> operations, List<Interval> intervals, List<Phase> phases,
                        List<ErrorCount> errors, String stopReason, String fatalError, long unfinishedOperations,
                        Map<String, Timing> observations, Map<String, GaugeSummary> gauges, List<RoleResult> roles,
                        List<DisruptionRecord> disruptions, long mostScheduleLagNanos) {

    public boolean failed() {
        return fatalError != null;
    }
}

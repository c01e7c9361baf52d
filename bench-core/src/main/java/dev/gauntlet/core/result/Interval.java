package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One reporting interval ending {@code t} seconds after the run started, in the named phase: each operation's
 * figures, each latency observation's distribution (e.g. end-to-end), each gauge's value at the interval's end, and
 * the failures of the interval by class ({@code connection}, {@code ambiguous-commit}, {@code timeout}... as in the
 * result's errors, plus {@code retried} attempts, failed {@code reconnect} attempts and sessions {@value #REOPENED}
 * after a lost one), so a run through faults can be read second by second. Intervals close at every phase boundary, so a phase's failures are the sum of its
 * intervals'.
 */
public record Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations,
                       long errors, long retries,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Timing> observations,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> gauges,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> failures) {

    /** The class in {@link #failures} counting sessions re-opened after one was lost (not a failure itself). */
    public static final String REOPENED = "reopened";

    public Interval {
        // Keep the workload's order of operations (results and progress lines list them that way).
        operations = ordered(operations);
        observations = ordered(observations);
        gauges = ordered(gauges);
        failures = ordered(failures);
    }

    public Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations, long errors,
                    long retries, Map<String, Timing> observations, Map<String, Long> gauges) {
        this(t, seconds, phase, operations, errors, retries, observations, gauges, Map.of());
    }

    /** Failures of the given class in this interval. */
    public long failures(String failureClass) {
        return failures.getOrDefault(failureClass, 0L);
    }

    /** An interval of operations only. */
    public Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations, long errors,
                    long retries) {
        this(t, seconds, phase, operations, errors, retries, Map.of(), Map.of());
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}

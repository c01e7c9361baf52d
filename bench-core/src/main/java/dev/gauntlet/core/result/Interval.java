package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One reporting interval ending {@code t} seconds after the run started, in the named phase: each operation's
 * figures, each latency observation's distribution (e.g. end-to-end), and each gauge's value at the interval's end.
 */
public record Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations,
                       long errors, long retries,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Timing> observations,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> gauges) {

    public Interval {
        // Keep the workload's order of operations (results and progress lines list them that way).
        operations = ordered(operations);
        observations = ordered(observations);
        gauges = ordered(gauges);
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

package dev.gauntlet.core.result;

import java.util.Map;

/** One reporting interval ending {@code t} seconds after the run started, in the named phase. */
public record Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations,
                       long errors, long retries) {

    public Interval {
        // Keep the workload's order of operations (results and progress lines list them that way).
        operations = operations == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(operations));
    }
}

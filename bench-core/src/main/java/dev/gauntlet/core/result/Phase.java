package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named stretch of the run timeline (warmup, measure, or any phase the plan names: baseline, restart, recovery),
 * in seconds from start: whether it counts in the run's totals, each operation's figures over it (from the phase's
 * summed histograms), and how much each of the run's probes rose during it (e.g. {@code driverCpuNanos}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Phase(String name, double startSeconds, double endSeconds,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> probes, Boolean measured,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, IntervalOperation> operations) {

    /**
     * The run's first seconds, before its schedule: every client runs as it will, unmeasured, so the driver's classes
     * are loaded, its code compiled and its connections open when the warm-up (or the measuring) begins.
     */
    public static final String PRIME = "prime";
    public static final String WARMUP = "warmup";
    public static final String MEASURE = "measure";

    public Phase {
        probes = probes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(probes));
        operations = operations == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(operations));
    }

    public Phase(String name, double startSeconds, double endSeconds, Map<String, Long> probes) {
        this(name, startSeconds, endSeconds, probes, null, Map.of());
    }

    public Phase(String name, double startSeconds, double endSeconds) {
        this(name, startSeconds, endSeconds, Map.of());
    }

    /** How much the named probe rose in this phase, or null when it was not read. */
    public Long probe(String probeName) {
        return probes.get(probeName);
    }

    /** Whether the phase counts in the run's totals; results written before phases said so: all but the warm-up. */
    public boolean isMeasured() {
        return measured != null ? measured : !WARMUP.equals(name);
    }
}

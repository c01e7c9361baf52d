package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named stretch of the run timeline (warmup, measure, later injected faults), in seconds from start, with how
 * much each of the run's probes rose during it (e.g. {@code driverCpuNanos}).
 */
public record Phase(String name, double startSeconds, double endSeconds,
                    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> probes) {

    public static final String WARMUP = "warmup";
    public static final String MEASURE = "measure";

    public Phase {
        probes = probes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(probes));
    }

    public Phase(String name, double startSeconds, double endSeconds) {
        this(name, startSeconds, endSeconds, Map.of());
    }

    /** How much the named probe rose in this phase, or null when it was not read. */
    public Long probe(String probeName) {
        return probes.get(probeName);
    }
}

package dev.gauntlet.core.result;

/** A named stretch of the run timeline (warmup, measure, later injected faults), in seconds from start. */
public record Phase(String name, double startSeconds, double endSeconds) {

    public static final String WARMUP = "warmup";
    public static final String MEASURE = "measure";
}

package dev.gauntlet.sql.adversity;

import java.time.Duration;

/**
 * A disruption placed on the run's timeline: {@code at} after the run starts, for {@code length} (null: an event),
 * named as results show it ({@code disk-stall#2} for the second of a repeated one), in the phase the plan puts it.
 */
public record ScheduledDisruption(String name, String phase, DisruptionSpec spec, Duration at, Duration length) {

    /** When it stops disturbing the system, for the overlap check: its end, or its kind's footprint after it starts. */
    Duration disturbedUntil() {
        if (length != null) {
            return at.plus(length);
        }
        Duration footprint = spec.kind().footprint();
        return footprint == null ? at : at.plus(footprint);
    }
}

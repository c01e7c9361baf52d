package dev.gauntlet.core.run;

import java.time.Duration;

/**
 * When a disruption happens: {@code at} after the run starts, for {@code length} (null: {@link Disruption#start}
 * runs to completion and nothing is switched off afterwards); {@code injected}: whether this process starts and stops
 * it (false: another driver process of the run does, worker 0 of {@code --worker}, and this one only records the
 * plan, so the processes' results line up when merged).
 */
public record DisruptionPlan(Disruption disruption, Duration at, Duration length, boolean injected) {

    public DisruptionPlan(Disruption disruption, Duration at, Duration length) {
        this(disruption, at, length, true);
    }

    public DisruptionPlan {
        if (disruption == null) {
            throw new IllegalArgumentException("a disruption plan needs a disruption");
        }
        if (at == null || at.isNegative()) {
            throw new IllegalArgumentException(disruption.name() + ": its start must not be negative");
        }
        if (length != null && (length.isNegative() || length.isZero())) {
            throw new IllegalArgumentException(disruption.name() + ": its length must be positive");
        }
    }

    /** This plan, injected by another driver process of the run: this one records it as planned. */
    public DisruptionPlan elsewhere() {
        return new DisruptionPlan(disruption, at, length, false);
    }
}

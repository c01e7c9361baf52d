package dev.gauntlet.core.run;

import java.time.Duration;

/**
 * When a disruption happens: {@code at} after the run starts, for {@code length} (null: {@link Disruption#start}
 * runs to completion and nothing is switched off afterwards).
 */
public record DisruptionPlan(Disruption disruption, Duration at, Duration length) {

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
}

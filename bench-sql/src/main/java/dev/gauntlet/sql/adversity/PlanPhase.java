package dev.gauntlet.sql.adversity;

import java.time.Duration;
import java.util.List;

/**
 * A phase of a plan: its name and length, whether it is measured, whether it ends once the workload has recovered
 * (its length then a limit), and the disruptions planned in it.
 */
public record PlanPhase(String name, Duration length, boolean measured, boolean untilRecovered,
                        List<DisruptionSpec> disruptions) {

    public PlanPhase {
        disruptions = List.copyOf(disruptions);
    }
}

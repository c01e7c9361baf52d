package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.run.Disruption;

/**
 * A disruption of the system under test, under the name its plan gives it: what every kind shares, so each kind's
 * class says only what it does to the system.
 */
abstract class SystemDisruption implements Disruption {

    /** The name in the plan and the result, e.g. {@code kill-backend} or {@code outage-1}. */
    protected final String name;
    protected final SystemUnderTest system;

    SystemDisruption(String name, SystemUnderTest system) {
        this.name = name;
        this.system = system;
    }

    @Override
    public final String name() {
        return name;
    }
}

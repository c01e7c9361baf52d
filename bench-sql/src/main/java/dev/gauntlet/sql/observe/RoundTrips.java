package dev.gauntlet.sql.observe;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.run.PhaseProbe;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.CountingSockets;

/**
 * Round trips between benchmark sessions and the server, counted on the wire: pgjdbc opens every session's socket
 * through {@link CountingSockets} (its {@code socketFactory} property, set by {@link ConnectionSettings} on session
 * connections), which counts a round trip each time the driver reads after having written, i.e. each request the
 * driver had to wait on. A statement pgjdbc sends with BEGIN piggybacked is one trip; COMMIT is another. Read at
 * every phase boundary, so a result carries its round trips per operation without the workload counting anything.
 */
public final class RoundTrips implements PhaseProbe {

    public static final String NAME = "roundTrips";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PerOperation perOperation() {
        return new PerOperation("roundTripsPerOperation", 1, MetricInfo.lower().perOperation());
    }

    @Override
    public Long read() {
        return CountingSockets.roundTrips();
    }
}

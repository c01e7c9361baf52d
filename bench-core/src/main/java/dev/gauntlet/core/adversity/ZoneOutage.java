package dev.gauntlet.core.adversity;

import dev.gauntlet.core.db.BaseBackup;
import dev.gauntlet.core.db.ReplicatedPostgres;
import dev.gauntlet.core.run.Disruption;
import java.time.Duration;
import java.util.Locale;

/**
 * The primary's zone lost: the primary stopped at once (immediate shutdown, as a power loss looks to clients), the
 * standby promoted after {@code promoteAfter} (the time a failure detector takes), and when the zone returns (the
 * disruption's end) the old primary rebuilt from a base backup of the new one and started as its standby. With a
 * synchronous standby no acknowledged commit is lost; with an asynchronous one, what had not reached it is.
 */
final class ZoneOutage implements Disruption {

    private final String name;
    private final SystemUnderTest system;
    private final Duration promoteAfter;
    private volatile boolean down;
    private volatile boolean promoted;

    ZoneOutage(String name, SystemUnderTest system, Duration promoteAfter) {
        this.name = name;
        this.system = system;
        this.promoteAfter = promoteAfter;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start(Log log) throws Exception {
        ReplicatedPostgres servers = system.local().orElseThrow();
        int oldPort = servers.primary().port();
        servers.stopPrimary();
        down = true;
        log.note("primary (port " + oldPort + ") stopped (immediate)");
        Thread.sleep(promoteAfter.toMillis());
        Duration took = servers.promote();
        promoted = true;
        log.note(String.format(Locale.ROOT, "standby (port %d) promoted after %s in %.1f s%s",
                servers.primary().port(), dev.gauntlet.core.run.Durations.format(promoteAfter), took.toNanos() / 1e9,
                servers.synchronous() ? "; synchronous replication suspended until a standby is back" : ""));
    }

    @Override
    public void stop(Log log) throws Exception {
        if (!down) {
            return;
        }
        ReplicatedPostgres servers = system.local().orElseThrow();
        if (!promoted) {
            // Stopped before the failure detector fired (the run ended): finish the failover first.
            servers.promote();
            promoted = true;
            log.note("standby promoted early: the run ended during the outage");
        }
        long t0 = System.nanoTime();
        BaseBackup.Outcome o = servers.rebuildStandby();
        down = false;
        log.note(String.format(Locale.ROOT, "old primary rebuilt as the new standby (base backup of %,d MB) and "
                + "streaming in %.1f s", o.bytes() >> 20, (System.nanoTime() - t0) / 1e9));
    }
}

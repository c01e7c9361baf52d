package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.server.BaseBackup;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The primary's zone lost: the primary stopped at once (immediate shutdown, as a power loss looks to clients), the
 * standby promoted after {@code promoteAfter} (the time a failure detector takes), and when the zone returns (the
 * disruption's end) the old primary rebuilt from a base backup of the new one and started as its standby. With a
 * synchronous standby no acknowledged commit is lost; with an asynchronous one, what had not reached it is.
 *
 * <p>With {@code holdStandby} > 0 the primary's WAL sender to the standby is first stopped (SIGSTOP) for that long,
 * and ended with the primary, as a standby on a slow link falls behind: an asynchronous standby then lacks the
 * last commits the clients were told about, and the failover loses them (what a "nothing lost" check must find); a
 * synchronous standby makes those commits wait instead, so none is acknowledged and none is lost.
 */
final class ZoneOutage extends SystemDisruption {

    private final Duration promoteAfter;
    private final Duration holdStandby;
    private volatile boolean down;
    private volatile boolean promoted;

    ZoneOutage(String name, SystemUnderTest system, Duration promoteAfter, Duration holdStandby) {
        super(name, system);
        this.promoteAfter = promoteAfter;
        this.holdStandby = holdStandby;
    }

    @Override
    public void start(Log log) throws Exception {
        ReplicatedPostgres servers = system.local().orElseThrow();
        int oldPort = servers.primary().port();
        if (holdStandby.compareTo(Duration.ZERO) > 0) {
            holdStandbyAndStopPrimary(servers, log);
        } else {
            servers.stopPrimary();
        }
        down = true;
        log.note("primary (port " + oldPort + ") stopped (immediate)");
        Thread.sleep(promoteAfter.toMillis());
        Duration took = servers.promote();
        promoted = true;
        log.note(String.format(Locale.ROOT, "standby (port %d) promoted after %s in %.1f s%s",
                servers.primary().port(), dev.gauntlet.core.result.Durations.format(promoteAfter), took.toNanos() / 1e9,
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

    /**
     * Stops the primary's WAL sender to the standby (SIGSTOP) for {@link #holdStandby} while the clients go on, notes
     * how far behind the standby is, then ends the sender (SIGKILL: on resuming it would send what it holds) and the
     * primary. The sender is held rather than the standby's receiver: a held receiver leaves the sender filling
     * socket buffers (tens of MB on loopback), which the receiver reads when resumed, and the standby would not be
     * behind after all. An exit hook resumes the sender if the run is stopped meanwhile.
     */
    private void holdStandbyAndStopPrimary(ReplicatedPostgres servers, Log log) throws Exception {
        var standby = servers.standby().orElseThrow(() -> new IllegalStateException("there is no standby to hold"));
        List<Long> senders = walSenders(servers.primary());
        StoppedProcesses held = StoppedProcesses.stop(senders, "zone-outage");
        try {
            Thread.sleep(holdStandby.toMillis());
            String behind = behind(servers, standby);
            held.kill();
            servers.stopPrimary();
            log.note("the primary's WAL sender to the standby (pid " + senders.get(0) + ") held "
                    + dev.gauntlet.core.result.Durations.format(holdStandby) + " (SIGSTOP) before the primary stopped: "
                    + behind);
        } finally {
            held.resumeQuietly();
        }
    }

    private static List<Long> walSenders(dev.gauntlet.sql.server.LocalPostgres primary) throws SQLException {
        try (Connection c = primary.connect("postgres"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pid " + dev.gauntlet.sql.observe.ServerHealth.STANDBYS)) {
            List<Long> pids = new java.util.ArrayList<>();
            while (rs.next()) {
                pids.add(rs.getLong(1));
            }
            if (pids.isEmpty()) {
                throw new SQLException("the primary sends WAL to no standby: there is nothing to hold back");
            }
            return pids;
        }
    }

    /** How far the standby's received WAL is behind the primary's, as the two servers say. */
    private static String behind(ReplicatedPostgres servers, dev.gauntlet.sql.server.LocalPostgres standby) {
        try (Connection p = servers.primary().connect("postgres"); Statement ps = p.createStatement();
             ResultSet pr = ps.executeQuery("SELECT pg_current_wal_lsn()");
             Connection sc = standby.connect("postgres"); PreparedStatement ss = sc.prepareStatement(
                     "SELECT pg_last_wal_receive_lsn(), pg_wal_lsn_diff(?::pg_lsn, pg_last_wal_receive_lsn())")) {
            pr.next();
            String written = pr.getString(1);
            ss.setString(1, written);
            try (ResultSet sr = ss.executeQuery()) {
                sr.next();
                return String.format(Locale.ROOT, "the primary had written WAL to %s, the standby received to %s "
                        + "(%,.1f MB behind)", written, sr.getString(1), sr.getDouble(2) / (1 << 20));
            }
        } catch (SQLException e) {
            return "how far behind could not be read (" + e.getMessage() + ")";
        }
    }
}

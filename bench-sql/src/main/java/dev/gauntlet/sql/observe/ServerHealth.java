package dev.gauntlet.sql.observe;

import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.run.GaugeProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The primary's own view of a run through faults, sampled every interval straight from the servers, never through
 * the Toxiproxy a plan puts in the workload's path (a run gives it its direct URL: on the embedded topology a multi-host
 * URL with {@code targetServerType=primary}, so it follows a failover): {@code replicationLagBytes} (WAL the slowest standby has not replayed; absent without a standby),
 * {@code walBytesPerSecond} since the previous sample, and {@code checkpoints} completed since the run started
 * (timed and requested). A sample that fails (the server is down) leaves a gap.
 */
public final class ServerHealth implements GaugeProbe {

    public static final String REPLICATION_LAG = "replicationLagBytes";

    private final HeldConnection connection;
    private Long checkpointsAtStart;
    private long lastWal = -1;
    private long lastNanos;

    /**
     * Physical standbys replaying: not a base backup streaming its WAL (it reports no replay position) and not a
     * logical decoding client (a CDC consumer's lag is its own, not the standby's).
     */
    public static final String STANDBYS = "FROM pg_stat_replication WHERE replay_lsn IS NOT NULL AND pid NOT IN "
            + "(SELECT active_pid FROM pg_replication_slots WHERE slot_type = 'logical' AND active_pid IS NOT NULL)";

    public ServerHealth(ConnectionSettings settings) {
        this.connection = new HeldConnection(settings);
    }

    @Override
    public String name() {
        return "server-health";
    }

    @Override
    public GaugeInfo.Kind kind() {
        return GaugeInfo.Kind.LEVEL;
    }

    /** Replication lag: the largest reading is meant; WAL and checkpoints: the same server read by each process. */
    @Override
    public GaugeInfo.Merge merge(String gauge) {
        return gauge.equals(REPLICATION_LAG) ? GaugeInfo.Merge.MAX : GaugeInfo.Merge.SERVER;
    }

    @Override
    public Map<String, Long> sample() throws SQLException {
        try (Statement s = connection.get().createStatement()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            try (ResultSet rs = s.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, "
                    + "(SELECT max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn))::bigint "
                    + STANDBYS + "), current_setting('server_version_num')::int")) {
                rs.next();
                long wal = rs.getLong(1);
                long lag = rs.getLong(2);
                boolean standby = !rs.wasNull();
                int version = rs.getInt(3);
                long now = System.nanoTime();
                if (lastWal >= 0 && wal >= lastWal && now > lastNanos) {
                    figures.put("walBytesPerSecond", Math.round((wal - lastWal) / ((now - lastNanos) / 1e9)));
                }
                lastWal = wal;
                lastNanos = now;
                if (standby) {
                    figures.put(REPLICATION_LAG, lag);
                }
                String checkpoints = version >= 170000
                        ? "SELECT num_timed + num_requested FROM pg_stat_checkpointer"
                        : "SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter";
                try (ResultSet c = s.executeQuery(checkpoints)) {
                    c.next();
                    long n = c.getLong(1);
                    if (checkpointsAtStart == null) {
                        checkpointsAtStart = n;
                    }
                    // A failover brings another server's counters: count from where the new one was first seen.
                    if (n < checkpointsAtStart) {
                        checkpointsAtStart = n;
                    }
                    figures.put("checkpoints", n - checkpointsAtStart);
                }
            }
            return figures;
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}

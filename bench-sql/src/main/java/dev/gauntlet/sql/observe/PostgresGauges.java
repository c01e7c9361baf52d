package dev.gauntlet.sql.observe;

import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.run.GaugeProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a PostgreSQL server does with a workload's tables over a run, sampled every interval: their size on disk
 * ({@code tableBytes}, heap with TOAST; {@code indexBytes}), live and dead tuples, how many times autovacuum has run on
 * them, the WAL the whole server has written since the run started ({@code walBytes}), and how old the oldest snapshot
 * a session of the database holds is ({@code oldestSnapshotMs}). Long runs show whether bloat or vacuum changes the
 * picture. Reads {@code pg_stat_user_tables}, whose tuple and vacuum counts the statistics collector updates every few
 * hundred milliseconds, so they trail the sizes a little, and {@code pg_stat_activity}. On a server without these
 * views (CockroachDB) every sample fails and the gauges stay out of the result.
 *
 * <p>{@code oldestSnapshotMs}: while one statement (or, above READ COMMITTED, one transaction) holds its snapshot, no
 * row version deleted or updated since it began can be removed, nor its index entries marked dead, so every index
 * scan of a queue's head reads them all again. A jsonb train-events run showed it: a statement that flushed the GIN
 * index's pending list ran 44-61 s, and each claim meanwhile read 72,000 dead index entries
 * (reports/trainevents/side-by-side/gin-horizon.txt). Client sessions of this database only (the horizon of its
 * tables), not this probe's; those of other roles count where the probe's user may see them (pg_read_all_stats).
 */
public final class PostgresGauges implements GaugeProbe {

    private static final String TABLES = "SELECT coalesce(sum(pg_table_size(relid)), 0), "
            + "coalesce(sum(pg_indexes_size(relid)), 0), coalesce(sum(n_live_tup), 0), coalesce(sum(n_dead_tup), 0), "
            + "coalesce(sum(autovacuum_count), 0), coalesce(sum(vacuum_count), 0) "
            + "FROM pg_stat_user_tables WHERE relname LIKE ANY (?)";

    /** The gauge: how old the oldest snapshot held by a client session of the database is, in milliseconds. */
    public static final String OLDEST_SNAPSHOT = "oldestSnapshotMs";

    /** The age of the oldest transaction of a client session of this database that holds a snapshot. */
    private static final String OLDEST_SNAPSHOT_SQL = "SELECT coalesce(max(extract(epoch FROM clock_timestamp() - xact_start) "
            + "* 1000), 0)::bigint FROM pg_stat_activity WHERE backend_xmin IS NOT NULL AND backend_type = 'client backend' "
            + "AND datname = current_database() AND pid <> pg_backend_pid()";

    private final List<String> tablePatterns;
    private final HeldConnection connection;
    private Long walAtStart;

    /**
     * @param tablePatterns the tables to watch, as SQL LIKE patterns ({@code log_p%}, {@code consumer_offsets})
     */
    public PostgresGauges(ConnectionSettings settings, List<String> tablePatterns) {
        this.connection = new HeldConnection(settings);
        this.tablePatterns = List.copyOf(tablePatterns);
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public GaugeInfo.Kind kind() {
        return GaugeInfo.Kind.LEVEL;
    }

    /** Every process reads the same server's tables: a merge takes the median reading, never the sum. */
    @Override
    public GaugeInfo.Merge merge(String gauge) {
        return GaugeInfo.Merge.SERVER;
    }

    @Override
    public Map<String, Long> sample() throws SQLException {
        try {
            return read(connection.get());
        } catch (SQLException e) {
            close(); // reconnect next time: the server may have restarted
            throw e;
        }
    }

    private Map<String, Long> read(Connection c) throws SQLException {
        Map<String, Long> figures = new LinkedHashMap<>();
        Array patterns = c.createArrayOf("text", tablePatterns.toArray());
        try (PreparedStatement p = c.prepareStatement(TABLES)) {
            p.setArray(1, patterns);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                figures.put("tableBytes", rs.getLong(1));
                figures.put("indexBytes", rs.getLong(2));
                figures.put("liveTuples", rs.getLong(3));
                figures.put("deadTuples", rs.getLong(4));
                figures.put("autovacuumRuns", rs.getLong(5));
                figures.put("vacuumRuns", rs.getLong(6));
            }
        }
        try (PreparedStatement p = c.prepareStatement(OLDEST_SNAPSHOT_SQL); ResultSet rs = p.executeQuery()) {
            rs.next();
            figures.put(OLDEST_SNAPSHOT, rs.getLong(1));
        }
        long wal = WalBytes.read(c);
        if (walAtStart == null) {
            walAtStart = wal;
        }
        figures.put("walBytes", wal - walAtStart);
        return figures;
    }

    /** The WAL is counted from each run's start. */
    @Override
    public void runStarts() {
        walAtStart = null;
    }

    @Override
    public void close() {
        connection.close();
    }
}

package dev.gauntlet.queue.schema;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.sql.Catalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The pub/sub log: one table per partition ({@code log_p0}, {@code log_p1}, ...) with gapless offsets, a tip row per
 * partition holding its next offset (the row writers of a partition serialize on), each consumer group's
 * committed offset per partition, and where each partition's retained messages start (retention deletes the ones
 * every group has read; a row of its own so it never contends with writers for the tip).
 *
 * <pre>
 * log_tip(partition, next_offset)
 * log_retention(partition, first_offset)
 * log_pN(msg_offset bigint primary key, produced_at bigint, producer_seq bigint, payload bytea)
 *     produced_at: RunClock epoch nanos; producer_seq: the writer's batch (WriterLedger), the same in each of its
 *     messages
 * consumer_offsets(grp, partition, next_offset)
 * </pre>
 */
public final class LogSchema {

    private LogSchema() {
    }

    /** The tables a server gauge should watch, as LIKE patterns. */
    public static final java.util.List<String> TABLES = java.util.List.of("log\\_p%", "log\\_tip", "log\\_retention",
            "consumer\\_offsets");

    /** Drops whatever log is there and creates an empty one of {@code partitions} partitions and {@code groups} groups. */
    public static void create(Connection c, int partitions, int groups) throws SQLException {
        drop(c);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE log_tip (partition int PRIMARY KEY, next_offset bigint NOT NULL)");
            s.execute("CREATE TABLE log_retention (partition int PRIMARY KEY, first_offset bigint NOT NULL)");
            s.execute("CREATE TABLE consumer_offsets (grp int, partition int, next_offset bigint NOT NULL, "
                    + "PRIMARY KEY (grp, partition))");
            for (int p = 0; p < partitions; p++) {
                s.execute("CREATE TABLE " + PubSubWorkload.partitionTable(p) + " (msg_offset bigint PRIMARY KEY, "
                        + "produced_at bigint NOT NULL, producer_seq bigint NOT NULL, payload bytea NOT NULL)");
                s.execute("INSERT INTO log_tip VALUES (" + p + ", 0)");
                s.execute("INSERT INTO log_retention VALUES (" + p + ", 0)");
                for (int g = 0; g < groups; g++) {
                    s.execute("INSERT INTO consumer_offsets VALUES (" + g + ", " + p + ", 0)");
                }
            }
        }
    }

    /**
     * The messages each group has still to read in {@code partitions}, summed over them, by group ({@code g1},
     * {@code g2}...).
     */
    public static java.util.Map<String, Long> backlog(Connection c, WorkerShare.Range partitions) throws SQLException {
        java.util.Map<String, Long> behind = new java.util.LinkedHashMap<>();
        try (var p = c.prepareStatement("SELECT o.grp, sum(t.next_offset - o.next_offset) FROM consumer_offsets o "
                + "JOIN log_tip t USING (partition) WHERE o.partition >= ? AND o.partition < ? GROUP BY o.grp "
                + "ORDER BY o.grp")) {
            p.setInt(1, partitions.from());
            p.setInt(2, partitions.to());
            try (var rs = p.executeQuery()) {
                while (rs.next()) {
                    behind.put("g" + (rs.getInt(1) + 1), rs.getLong(2));
                }
            }
        }
        return behind;
    }

    /** How many partitions the log has, or 0 when there is none. */
    public static int partitions(Connection c) throws SQLException {
        if (!Catalog.hasTable(c, "log_tip")) {
            return 0;
        }
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM log_tip")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** How many consumer groups the log has offsets of. */
    public static int groups(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT count(DISTINCT grp) FROM consumer_offsets")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    public static void drop(Connection c) throws SQLException {
        int partitions = partitions(c);
        try (Statement s = c.createStatement()) {
            for (int p = 0; p < partitions; p++) {
                s.execute("DROP TABLE IF EXISTS " + PubSubWorkload.partitionTable(p));
            }
            s.execute("DROP TABLE IF EXISTS log_tip");
            s.execute("DROP TABLE IF EXISTS log_retention");
            s.execute("DROP TABLE IF EXISTS consumer_offsets");
        }
    }
}

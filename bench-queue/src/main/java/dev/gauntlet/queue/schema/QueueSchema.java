package dev.gauntlet.queue.schema;

import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.sql.Catalog;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The work queue: one table of messages that competing readers claim and acknowledge, and, when acknowledging
 * archives, the table the acknowledged messages move to.
 *
 * <pre>
 * queue_messages(id identity primary key, produced_at bigint, payload bytea, acked_at timestamptz)
 *     produced_at: RunClock epoch nanos; acked_at: set only by the flag ack mode, whose claims use
 *     queue_messages_unacked, a partial index of the ids not yet acknowledged
 * queue_archive(id primary key, produced_at, payload, acked_at)      archive ack mode only
 * queue_ledgers(worker, kind, first_id, ids)   a split run's ledgers (--worker), gathered for one verification:
 *     a row per record of each process's ledger file, a run of {@code ids} consecutive ids from {@code first_id}
 * </pre>
 *
 * The archive's primary key is the database's own guard against a message archived twice.
 */
public final class QueueSchema {

    /** The tables a server gauge should watch, as LIKE patterns. */
    public static final List<String> TABLES = List.of("queue\\_messages", "queue\\_archive");

    private QueueSchema() {
    }

    /** Drops whatever queue is there and creates an empty one for {@code mode}. */
    public static void create(Connection c, AckMode mode) throws SQLException {
        drop(c);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE queue_messages (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                    + "produced_at bigint NOT NULL, payload bytea NOT NULL, acked_at timestamptz)");
            if (mode == AckMode.FLAG) {
                // Acknowledged rows stay: without this a claim would walk past all of them in the primary key.
                s.execute("CREATE INDEX queue_messages_unacked ON queue_messages (id) WHERE acked_at IS NULL");
            }
            if (mode == AckMode.ARCHIVE) {
                s.execute("CREATE TABLE queue_archive (id bigint PRIMARY KEY, produced_at bigint NOT NULL, "
                        + "payload bytea NOT NULL, acked_at timestamptz NOT NULL DEFAULT now())");
            }
            s.execute("CREATE TABLE queue_ledgers (worker int NOT NULL, kind smallint NOT NULL, "
                    + "first_id bigint NOT NULL, ids int NOT NULL)");
        }
    }

    /** Whether there is a queue. */
    public static boolean exists(Connection c) throws SQLException {
        return Catalog.hasTable(c, "queue_messages");
    }

    /**
     * How the queue there acknowledges, read from its tables: {@code queue_archive} for archive, the partial index of
     * the unacknowledged ids for flag, neither for delete; null when there is no queue.
     */
    public static AckMode ackMode(Connection c) throws SQLException {
        if (!exists(c)) {
            return null;
        }
        if (Catalog.hasTable(c, "queue_archive")) {
            return AckMode.ARCHIVE;
        }
        return Catalog.hasTable(c, "queue_messages_unacked") ? AckMode.FLAG : AckMode.DELETE;
    }

    /** The messages not yet acknowledged, as {@code queue}. */
    public static Map<String, Long> backlog(Connection c, AckMode mode) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM queue_messages"
                + (mode == AckMode.FLAG ? " WHERE acked_at IS NULL" : ""))) {
            rs.next();
            return Map.of("queue", rs.getLong(1));
        }
    }

    public static void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS queue_messages");
            s.execute("DROP TABLE IF EXISTS queue_archive");
            s.execute("DROP TABLE IF EXISTS queue_ledgers");
        }
    }
}

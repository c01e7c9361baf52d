package dev.gauntlet.queue.workqueue;

import dev.gauntlet.sql.LedgerCopy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A work queue's ledger in the database, id by id: one temporary row per id any record names, with how often it was
 * produced, acknowledged, maybe produced and maybe acknowledged. The ledger is copied in as a stream of its records
 * (runs of consecutive ids) and expanded there, so the check holds none of it in the driver's heap; a run split
 * between processes is read from every process's ledger stored in {@code queue_ledgers} ({@link LedgerStore}).
 *
 * <p>Settle the commits whose outcome was lost first ({@link #settleAcks}, then {@link #settleWrites}), then ask for
 * the {@link #tally} and the lookups in the queue. Closing drops the temporary tables.
 */
public final class AckIds implements AutoCloseable {

    private static final String RECORDS = "queue_ack_records";
    private static final String IDS = "queue_ack_ids";
    /** How the settled rows are named in the queries. */
    private static final String PRODUCED = "inserts";
    private static final String ACKED = "acks";

    private final Connection c;

    private AckIds(Connection c) {
        this.c = c;
    }

    /** {@code ledger}, copied into the database. */
    public static AckIds of(Connection c, AckLedger ledger) throws SQLException {
        AckIds ids = new AckIds(c);
        try (Statement s = c.createStatement()) {
            ids.drop(s);
            s.execute("CREATE TEMPORARY TABLE " + RECORDS + " (kind smallint, first_id bigint, ids int)");
        }
        LedgerCopy.into(c, RECORDS, out -> ledger.writeRows(out, ""));
        ids.expand(RECORDS);
        return ids;
    }

    /** Every process's ledger of a split run, as they stored them ({@link LedgerStore#store}). */
    public static AckIds stored(Connection c) throws SQLException {
        AckIds ids = new AckIds(c);
        try (Statement s = c.createStatement()) {
            ids.drop(s);
        }
        ids.expand(LedgerStore.TABLE);
        return ids;
    }

    private void expand(String records) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE " + IDS + " AS SELECT r.first_id + g AS id, "
                    + "count(*) FILTER (WHERE r.kind = " + AckLedger.Kind.PRODUCED.code() + ") AS " + PRODUCED + ", "
                    + "count(*) FILTER (WHERE r.kind = " + AckLedger.Kind.ACKED.code() + ") AS " + ACKED + ", "
                    + "count(*) FILTER (WHERE r.kind = " + AckLedger.Kind.MAYBE_PRODUCED.code() + ") AS maybe_inserts, "
                    + "count(*) FILTER (WHERE r.kind = " + AckLedger.Kind.MAYBE_ACKED.code() + ") AS maybe_acks "
                    + "FROM " + records + " r, generate_series(0, r.ids - 1) AS g GROUP BY 1");
            s.execute("ANALYZE " + IDS);
        }
    }

    /**
     * Acknowledgements whose commit's outcome is unknown and that no committed acknowledgement covers, each id once:
     * those the queue shows acknowledged took effect and are counted acknowledged from here on. An id another reader
     * is known to have acknowledged is that reader's: a message is acknowledged once, by the reader holding it, so the
     * acknowledgement whose outcome was lost did not take effect (the message went back to the queue and the other
     * reader took it). Of several readers unsure of the same id, at most one acknowledged it.
     *
     * @return how many took effect
     */
    public long settleAcks(AckMode mode) throws SQLException {
        return update("UPDATE " + IDS + " i SET " + ACKED + " = 1 WHERE i.maybe_acks > 0 AND i." + ACKED + " = 0 AND "
                + acknowledged(mode));
    }

    /** Where the queue shows message {@code i.id} acknowledged, as {@code mode} leaves it. */
    private static String acknowledged(AckMode mode) {
        return switch (mode) {
            case DELETE -> "NOT EXISTS (SELECT 1 FROM queue_messages q WHERE q.id = i.id)";
            case ARCHIVE -> "EXISTS (SELECT 1 FROM queue_archive a WHERE a.id = i.id)";
            case FLAG -> "EXISTS (SELECT 1 FROM queue_messages q WHERE q.id = i.id AND q.acked_at IS NOT NULL)";
        };
    }

    /**
     * The commits a driver that died had in flight, sent and never heard back, so in no record of its ledger: settled
     * against the queue, each kind only when there are no more than its clients could have had in flight. An id
     * produced and never heard acknowledged that the queue shows acknowledged (archived, or flagged: {@code --ack
     * delete} leaves no trace to tell by) was acknowledged by a commit in flight; an id acknowledged and never heard
     * produced was produced by one, as a reader can only claim a message that was there. After {@link #settleAcks}
     * and {@link #settleWrites}.
     *
     * @param readMessages  the most ids the readers' commits in flight may have acknowledged
     * @param writeMessages the most ids the writers' commits in flight may have produced
     * @return {acknowledgements settled, inserts settled}
     */
    public long[] settleInFlight(AckMode mode, long readMessages, long writeMessages) throws SQLException {
        long acks = 0;
        if (mode != AckMode.DELETE) {
            String unheard = "i." + PRODUCED + " > 0 AND i." + ACKED + " = 0 AND " + acknowledged(mode);
            if (count("SELECT count(*), 0 FROM " + IDS + " i WHERE " + unheard)[0] <= readMessages) {
                acks = update("UPDATE " + IDS + " i SET " + ACKED + " = 1 WHERE " + unheard);
            }
        }
        String unheard = "i." + ACKED + " > 0 AND i." + PRODUCED + " = 0";
        long writes = 0;
        if (count("SELECT count(*), 0 FROM " + IDS + " i WHERE " + unheard)[0] <= writeMessages) {
            writes = update("UPDATE " + IDS + " i SET " + PRODUCED + " = 1 WHERE " + unheard);
        }
        return new long[] {acks, writes};
    }

    /**
     * Inserts whose commit's outcome is unknown and that no committed insert produced, each id once: those still in
     * the queue (or its archive), or acknowledged by a reader (who can only have claimed a message that was there),
     * were produced and are counted produced from here on. After {@link #settleAcks}.
     *
     * @return how many had an unknown outcome, landed or not
     */
    public long settleWrites(AckMode mode) throws SQLException {
        String unsettled = "i.maybe_inserts > 0 AND i." + PRODUCED + " = 0";
        long uncertain = count("SELECT count(*), 0 FROM " + IDS + " i WHERE " + unsettled)[0];
        update("UPDATE " + IDS + " i SET " + PRODUCED + " = 1 WHERE " + unsettled + " AND (i." + ACKED + " > 0 OR "
                + "EXISTS (SELECT 1 FROM queue_messages q WHERE q.id = i.id)" + (mode == AckMode.ARCHIVE
                ? " OR EXISTS (SELECT 1 FROM queue_archive a WHERE a.id = i.id)" : "") + ")");
        return uncertain;
    }

    /** Produced and acknowledged side by side, id by id. */
    public AckLedger.Tally tally() throws SQLException {
        String produced = PRODUCED + " > 0";
        String acked = ACKED + " > 0";
        String unacked = produced + " AND " + ACKED + " = 0";
        String phantom = acked + " AND " + PRODUCED + " = 0";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE "
                + produced + "), coalesce(sum(" + ACKED + "), 0), count(*) FILTER (WHERE " + acked + "), "
                + counted(ACKED + " > 1") + ", " + counted(phantom) + ", " + counted(unacked) + ", "
                + counted(PRODUCED + " > 1") + " FROM " + IDS)) {
            rs.next();
            return new AckLedger.Tally(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                    rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11));
        }
    }

    /** How many ids {@code condition} holds for, and the lowest of them or -1. */
    private static String counted(String condition) {
        return "count(*) FILTER (WHERE " + condition + "), coalesce(min(id) FILTER (WHERE " + condition + "), -1)";
    }

    /**
     * {how many ids produced and never acknowledged have no row in {@code queue_messages} matching {@code filter} (on
     * {@code q}, or ""), the lowest of them or -1}: lost, unless the ledger is wrong.
     */
    public long[] unackedMissing(String filter) throws SQLException {
        return count("SELECT count(*), coalesce(min(i.id), -1) FROM " + IDS + " i WHERE i." + PRODUCED + " > 0 AND i."
                + ACKED + " = 0 AND NOT EXISTS (SELECT 1 FROM queue_messages q WHERE q.id = i.id" + filter + ")");
    }

    /**
     * {how many ids acknowledged have a row in {@code table} matching {@code filter} (on {@code q}, or ""), the
     * lowest of them or -1}.
     */
    public long[] ackedIn(String table, String filter) throws SQLException {
        return count("SELECT count(*), coalesce(min(i.id), -1) FROM " + IDS + " i WHERE i." + ACKED + " > 0 AND "
                + "EXISTS (SELECT 1 FROM " + table + " q WHERE q.id = i.id" + filter + ")");
    }

    /**
     * {how many ids acknowledged have no row in {@code table} matching {@code filter} (on {@code q}, or ""), the
     * lowest of them or -1}.
     */
    public long[] ackedNotIn(String table, String filter) throws SQLException {
        return count("SELECT count(*), coalesce(min(i.id), -1) FROM " + IDS + " i WHERE i." + ACKED + " > 0 AND "
                + "NOT EXISTS (SELECT 1 FROM " + table + " q WHERE q.id = i.id" + filter + ")");
    }

    private long[] count(String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    private long update(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    private void drop(Statement s) throws SQLException {
        s.execute("DROP TABLE IF EXISTS " + IDS);
        s.execute("DROP TABLE IF EXISTS " + RECORDS);
    }

    /** Drops the temporary tables; a connection already broken keeps them until it closes. */
    @Override
    public void close() throws SQLException {
        if (!c.isClosed()) {
            try (Statement s = c.createStatement()) {
                drop(s);
            }
        }
    }
}

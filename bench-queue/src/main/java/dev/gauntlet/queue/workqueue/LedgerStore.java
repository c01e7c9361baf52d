package dev.gauntlet.queue.workqueue;

import dev.gauntlet.sql.LedgerCopy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The ledgers of a work-queue run split between processes ({@code --worker}), gathered in {@value #TABLE}: any
 * process's reader may acknowledge any process's message, so no one ledger can verify delivery. Each process copies
 * its own in after its run, a row per record of its file (worker, kind, first id, how many), as a stream; one process
 * then verifies them all in the database ({@link AckIds#stored}).
 */
public final class LedgerStore {

    /** The table the processes' ledgers are gathered in. */
    public static final String TABLE = "queue_ledgers";

    private LedgerStore() {
    }

    /** Stores {@code ledger} as worker {@code worker}'s, replacing any it stored before. */
    public static void store(Connection c, int worker, AckLedger ledger) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement d = c.prepareStatement("DELETE FROM " + TABLE + " WHERE worker = ?")) {
                d.setInt(1, worker);
                d.executeUpdate();
            }
            LedgerCopy.into(c, TABLE + " (worker, kind, first_id, ids)", out -> ledger.writeRows(out, worker + "\t"));
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** How many ids of {@code kind} every worker's stored ledger holds together. */
    public static long stored(Connection c, AckLedger.Kind kind) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT coalesce(sum(ids), 0) FROM " + TABLE
                + " WHERE kind = ?")) {
            p.setInt(1, kind.code());
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}

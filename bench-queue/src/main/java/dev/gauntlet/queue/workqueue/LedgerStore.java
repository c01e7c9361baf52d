package dev.gauntlet.queue.workqueue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * The ledgers of a work-queue run split between processes ({@code --worker}), gathered in {@code queue_ledgers}: any
 * process's reader may acknowledge any process's message, so no one ledger can verify delivery. Each process stores
 * its own after its run; one process loads them all into one ledger and verifies that. Ids go as {@code bigint[]}
 * rows of up to 10,000.
 */
public final class LedgerStore {

    private static final int CHUNK = 10_000;
    private static final String PRODUCED = "produced";
    private static final String ACKED = "acked";
    private static final String MAYBE_PRODUCED = "maybe produced";
    private static final String MAYBE_ACKED = "maybe acked";

    private LedgerStore() {
    }

    /** Stores {@code ledger} as worker {@code worker}'s, replacing any it stored before. */
    public static void store(Connection c, int worker, AckLedger ledger) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (PreparedStatement d = c.prepareStatement("DELETE FROM queue_ledgers WHERE worker = ?")) {
                d.setInt(1, worker);
                d.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO queue_ledgers (worker, kind, ids) VALUES (?, ?, ?)")) {
                for (var kind : Map.of(PRODUCED, ledger.produced(), ACKED, ledger.acked(), MAYBE_PRODUCED,
                        ledger.uncertainWrites(), MAYBE_ACKED, ledger.uncertainAcks()).entrySet()) {
                    long[] ids = kind.getValue();
                    for (int from = 0; from < ids.length; from += CHUNK) {
                        p.setInt(1, worker);
                        p.setString(2, kind.getKey());
                        p.setArray(3, IdArrays.of(c, ids, from, Math.min(ids.length, from + CHUNK)));
                        p.addBatch();
                    }
                }
                p.executeBatch();
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** Every worker's ledger, as one. */
    public static AckLedger loadAll(Connection c) throws SQLException {
        AckLedger all = new AckLedger();
        try (PreparedStatement p = c.prepareStatement("SELECT kind, ids FROM queue_ledgers");
             ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                Object[] boxed = (Object[]) rs.getArray(2).getArray();
                long[] ids = new long[boxed.length];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = ((Number) boxed[i]).longValue();
                }
                switch (rs.getString(1)) {
                    case PRODUCED -> all.produced(ids);
                    case ACKED -> all.acked(ids);
                    case MAYBE_PRODUCED -> all.maybeProduced(ids);
                    case MAYBE_ACKED -> all.maybeAcked(ids);
                    default -> throw new SQLException("queue_ledgers holds an unknown kind '" + rs.getString(1) + "'");
                }
            }
        }
        return all;
    }
}

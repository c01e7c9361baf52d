package dev.gauntlet.tpcc.schema;

import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.tpcc.workload.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The mark of a load under way: a PostgreSQL session-level advisory lock (keyed by the schema) that {@code init} holds
 * on a connection of its own from before it reads the load record until its load ends. The server lets go of it when
 * that session ends however it ends, a kill -9 or a lost connection included. So a partial load whose lock is held is
 * being loaded, not interrupted, and a second {@code init} cannot load into the same tables at the same time.
 *
 * <p>CockroachDB has no advisory locks: there no lock is taken and every partial load reads as interrupted.
 */
public final class LoadLock implements AutoCloseable {

    /** The first key of the lock: "tpcc" in ASCII; the second is the hash of the schema's name. */
    private static final int KEY = 0x74706363;

    private final Connection session;

    private LoadLock(Connection session) {
        this.session = session;
    }

    /** Takes the lock for a load; null when another session holds it. */
    public static LoadLock take(ConnectionSettings settings, Dialect dialect) throws SQLException {
        if (dialect != Dialect.POSTGRES) {
            return new LoadLock(null);
        }
        Connection c = settings.connectForAdmin();
        try (PreparedStatement s = c.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(current_schema()))")) {
            s.setInt(1, KEY);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    return new LoadLock(c);
                }
            }
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        c.close();
        return null;
    }

    /** True when a load under way holds the lock on this database and schema (never on CockroachDB). */
    public static boolean held(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT version()"); ResultSet rs = s.executeQuery()) {
            if (rs.next() && rs.getString(1).contains("CockroachDB")) {
                return false;
            }
        }
        try (PreparedStatement s = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_locks "
                + "WHERE locktype = 'advisory' AND granted AND classid = ?::oid "
                + "AND objid = hashtext(current_schema())::oid AND objsubid = 2 "
                + "AND database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database()))")) {
            s.setInt(1, KEY);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Lets go of the lock: the load is over, finished or not. */
    @Override
    public void close() throws SQLException {
        if (session != null) {
            session.close();
        }
    }
}

package dev.gauntlet.sql;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A connection switched to one read-only REPEATABLE READ transaction, for reads that must all see the data
 * of one moment: invariants relating several tables are never checked against data from different moments.
 * On PostgreSQL that is a single snapshot, taken at the first statement; CockroachDB runs it as its default
 * SERIALIZABLE (or its snapshot-based REPEATABLE READ where enabled), which is one snapshot too.
 *
 * <p>The connection should be dedicated to the snapshot and not inside a transaction. Closing the snapshot
 * rolls the transaction back and restores the connection's auto-commit, isolation and read-only settings,
 * so the caller gets the connection back as it gave it.
 */
public final class ReadOnlySnapshot implements AutoCloseable {

    private final Connection connection;
    private final boolean autoCommit;
    private final int isolation;
    private final boolean readOnly;

    private ReadOnlySnapshot(Connection connection) throws SQLException {
        this.connection = connection;
        this.autoCommit = connection.getAutoCommit();
        this.isolation = connection.getTransactionIsolation();
        this.readOnly = connection.isReadOnly();
    }

    /**
     * Starts the snapshot on {@code c}; if that fails, the settings already changed are restored.
     *
     * @throws SQLException if the transaction cannot be set up
     */
    public static ReadOnlySnapshot begin(Connection c) throws SQLException {
        ReadOnlySnapshot snapshot = new ReadOnlySnapshot(c);
        try {
            // Auto-commit off first: the isolation of a transaction can be set only before it starts.
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
        } catch (SQLException e) {
            try {
                snapshot.close();
            } catch (SQLException restoring) {
                e.addSuppressed(restoring);
            }
            throw e;
        }
        return snapshot;
    }

    /** The connection to read through while the snapshot is open. */
    public Connection connection() {
        return connection;
    }

    /**
     * Ends the snapshot and restores the connection's settings; a closed connection has nothing to restore.
     * In a try-with-resources block a failure here is added to the block's own failure, which stays the one
     * reported.
     */
    @Override
    public void close() throws SQLException {
        if (connection.isClosed()) {
            return;
        }
        if (!connection.getAutoCommit()) { // false unless begin() failed at its first step
            connection.rollback();
        }
        connection.setReadOnly(readOnly);
        connection.setTransactionIsolation(isolation);
        connection.setAutoCommit(autoCommit);
    }
}

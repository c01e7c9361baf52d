package dev.gauntlet.sql.observe;

import dev.gauntlet.sql.ConnectionSettings;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A probe's own session, in auto-commit: opened when first needed and kept for every read after, so a run opens no
 * connection of a probe's in its measured time but the first; dropped when a read fails (the server may be
 * restarting) and opened again by the next read. Used by one thread at a time.
 */
final class HeldConnection implements AutoCloseable {

    private final ConnectionSettings settings;
    private Connection connection;

    HeldConnection(ConnectionSettings settings) {
        this.settings = settings;
    }

    /** The session, opened now if there is none. */
    Connection get() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = settings.connect();
            connection.setAutoCommit(true);
        }
        return connection;
    }

    /** Lets the session go (after a failed read, or at the end); the next {@link #get} opens another. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // a broken connection is closed enough
            }
            connection = null;
        }
    }
}

package dev.gauntlet.sql.observe;

import dev.gauntlet.core.run.PhaseProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The WAL a PostgreSQL server has written, read at every phase boundary: each phase in the result carries how many
 * bytes of WAL it wrote ({@value #NAME}), server-wide (other databases' writes count too), so a workload can say
 * what a message or a transaction costs in WAL. Null where the server has no {@code pg_current_wal_lsn} (CockroachDB).
 */
public final class WalBytes implements PhaseProbe {

    public static final String NAME = "walBytes";

    private final HeldConnection connection;

    public WalBytes(ConnectionSettings settings) {
        this.connection = new HeldConnection(settings);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Long read() {
        try {
            return read(connection.get());
        } catch (SQLException e) {
            connection.close(); // the server may be restarting: a new session next time
            return null;
        }
    }

    @Override
    public void close() {
        connection.close();
    }

    /** The server's WAL position in bytes. */
    static long read(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

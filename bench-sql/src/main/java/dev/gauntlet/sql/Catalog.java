package dev.gauntlet.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** What the database's catalog says, for a workload's schema asking what is there. */
public final class Catalog {

    private Catalog() {
    }

    /** Whether {@code table} exists on the connection's search path (PostgreSQL and CockroachDB: {@code to_regclass}). */
    public static boolean hasTable(Connection c, String table) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            p.setString(1, table);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}

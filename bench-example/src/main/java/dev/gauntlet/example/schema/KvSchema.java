package dev.gauntlet.example.schema;

import dev.gauntlet.sql.Catalog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The one table: {@code kv(k bigint primary key, v bytea, version bigint)}. Keys are {@code 0..keys-1}; every value
 * has the same length; {@code version} counts the puts a row has had, so the sum of versions is the number of puts
 * ever committed.
 */
public final class KvSchema {

    private KvSchema() {
    }

    /**
     * What is loaded: the number of keys (the highest key + 1, as keys are {@code 0..keys-1}: a key lost below it is
     * still in the range the checks look for) and the value length, read from the data itself.
     */
    public record Loaded(long keys, int valueSize) {
    }

    /** Creates the table and fills it with {@code keys} rows of {@code valueSize} random bytes, in one statement. */
    public static void load(Connection c, long keys, int valueSize) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kv (k bigint PRIMARY KEY, v bytea NOT NULL, version bigint NOT NULL DEFAULT 0)");
        }
        // Server-side generation: no rows travel over the network. Random bytes, so compression flatters nothing.
        // Each value is random md5 chunks (16 bytes each) cut to length; the aggregate names i, so it belongs to the subquery, and g, so it runs per row.
        try (PreparedStatement p = c.prepareStatement("INSERT INTO kv (k, v) SELECT g, "
                + "(SELECT decode(substr(string_agg(md5(random()::text || g || i), ''), 1, ? * 2), 'hex') "
                + "FROM generate_series(1, (? + 15) / 16) AS i) FROM generate_series(0, ? - 1) AS g")) {
            p.setInt(1, valueSize);
            p.setInt(2, valueSize);
            p.setLong(3, keys);
            p.executeUpdate();
        }
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE kv");
        }
    }

    /** The loaded table, or null when there is none. */
    public static Loaded loaded(Connection c) throws SQLException {
        if (!Catalog.hasTable(c, "kv")) {
            return null;
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(max(k), -1) + 1, coalesce(max(length(v)), 0) FROM kv")) {
            rs.next();
            return new Loaded(rs.getLong(1), rs.getInt(2));
        }
    }

    /** Puts ever committed: the sum of the versions. */
    public static long puts(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT coalesce(sum(version), 0) FROM kv")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS kv");
        }
    }
}

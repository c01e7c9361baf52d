package dev.gauntlet.tpcc.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What a load set out to do, recorded in {@code tpcc_load_plan} (one row) before its first row is written: the
 * warehouses it loads and the seed of their data; marked finished only after the keys, indexes and statistics. A load
 * killed at any point leaves the plan unfinished, so it is never taken for a complete one, and {@code init --resume}
 * knows what to finish and with which seed.
 *
 * @param finished whether the load got past its keys, indexes and statistics
 */
public record LoadPlan(int warehouses, long seed, boolean finished) {

    static final String TABLE = "tpcc_load_plan";

    static final String COLUMNS = "id int PRIMARY KEY, warehouses int NOT NULL, seed bigint NOT NULL, "
            + "started_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz";

    /** The recorded plan, or null where none is: no load yet, or one from before plans were recorded. */
    static LoadPlan read(Connection c) throws SQLException {
        if (!Schema.tableExists(c, TABLE)) {
            return null;
        }
        try (PreparedStatement s = c.prepareStatement("SELECT warehouses, seed, finished_at IS NOT NULL FROM " + TABLE);
             ResultSet rs = s.executeQuery()) {
            return rs.next() ? new LoadPlan(rs.getInt(1), rs.getLong(2), rs.getBoolean(3)) : null;
        }
    }

    /** Records, before anything is loaded, that a load of {@code warehouses} from {@code seed} has started. */
    static void start(Connection c, int warehouses, long seed) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TABLE + " (id, warehouses, seed) "
                + "VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET warehouses = excluded.warehouses, "
                + "seed = excluded.seed, started_at = now(), finished_at = NULL")) {
            s.setInt(1, warehouses);
            s.setLong(2, seed);
            s.executeUpdate();
        }
    }

    /** Records that the load is complete: every part, the keys, the indexes and the statistics. */
    static void finish(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE " + TABLE + " SET finished_at = now()")) {
            s.executeUpdate();
        }
    }
}

package dev.gauntlet.tpcc.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code tpcc_load} says about the data: which warehouses finished loading (0 stands for the item
 * table) and the load's NURand constant for last names, which every run needs to choose its own.
 */
public record LoadRecord(Set<Integer> finished, Integer lastNameConstant) {

    static final int ITEMS = 0;

    public static LoadRecord read(Connection c) throws SQLException {
        Set<Integer> done = new TreeSet<>();
        Integer constant = null;
        try (PreparedStatement s = c.prepareStatement("SELECT w_id, c_last_constant FROM " + Schema.LOAD_TABLE);
             ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                done.add(rs.getInt(1));
                constant = rs.getInt(2);
            }
        }
        return new LoadRecord(done, constant);
    }

    public boolean itemsLoaded() {
        return finished.contains(ITEMS);
    }

    /** Loaded warehouses 1..n with none missing in between; 0 when none. */
    public int warehouses() {
        int n = 0;
        while (finished.contains(n + 1)) {
            n++;
        }
        return n;
    }

    static void markFinished(Connection c, int warehouse, int lastNameConstant) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO " + Schema.LOAD_TABLE + " (w_id, c_last_constant) VALUES (?, ?)")) {
            s.setInt(1, warehouse);
            s.setInt(2, lastNameConstant);
            s.executeUpdate();
        }
    }
}

package dev.gauntlet.tpcc.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the database says about its TPC-C load: the parts {@code tpcc_load} records as finished (0 stands for the item
 * table), the load's NURand constant for last names (every run needs it to choose its own), the {@link LoadPlan} (null
 * for a load from before plans were recorded, judged by its finished parts alone) and whether the keys and indexes are
 * built.
 *
 * <p>A load is {@link #complete()} only when every planned part finished, the keys and indexes are built and the plan
 * is marked finished; one that is neither complete nor {@link #empty()} is partial: interrupted, or still under way.
 */
public record LoadRecord(Set<Integer> finished, Integer lastNameConstant, LoadPlan plan, boolean indexed) {

    static final int ITEMS = 0;

    /** The record where the TPC-C tables exist, else null. */
    public static LoadRecord find(Connection c) throws SQLException {
        return Schema.exists(c) ? read(c) : null;
    }

    /** The record of a database whose TPC-C tables exist. */
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
        return new LoadRecord(done, constant, LoadPlan.read(c), Schema.indexed(c));
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

    /** The warehouses the load set out to load: its plan's, or for a load from before plans the highest finished. */
    public int planned() {
        return plan != null ? plan.warehouses() : finished.stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** The planned warehouses not finished, in order. */
    public List<Integer> missing() {
        return missing(planned());
    }

    /** Warehouses 1..{@code warehouses} not finished, in order. */
    public List<Integer> missing(int warehouses) {
        List<Integer> missing = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            if (!finished.contains(w)) {
                missing.add(w);
            }
        }
        return missing;
    }

    /** Nothing planned and nothing finished: tables at most, as a load leaves that died before recording anything. */
    public boolean empty() {
        return plan == null && finished.isEmpty();
    }

    /** Every planned part finished, keys and indexes built, and (where a plan is recorded) the plan marked finished. */
    public boolean complete() {
        return !empty() && itemsLoaded() && missing().isEmpty() && indexed && (plan == null || plan.finished());
    }

    /** Neither complete nor empty: a load interrupted (or still under way). */
    public boolean partial() {
        return !empty() && !complete();
    }

    /**
     * What is there, for a line about a partial load: {@code 62 of 100 warehouses loaded, keys and indexes not built}.
     */
    public String state() {
        int planned = planned();
        int loaded = planned - missing().size();
        StringBuilder s = new StringBuilder(plan == null ? warehouses(loaded) + " loaded"
                : String.format(Locale.ROOT, "%d of %s loaded", loaded, warehouses(planned)));
        if (plan == null && loaded < planned) {
            s.append(String.format(Locale.ROOT, " (%d missing up to %d)", planned - loaded, planned));
        }
        if (!itemsLoaded()) {
            s.append(", the item table not loaded");
        }
        if (!indexed) {
            s.append(", keys and indexes not built");
        } else if (plan != null && !plan.finished() && loaded == planned && itemsLoaded()) {
            s.append(", statistics not refreshed");
        }
        return s.toString();
    }

    /** {@code 1 warehouse}, {@code 100 warehouses}. */
    public static String warehouses(int n) {
        return n + (n == 1 ? " warehouse" : " warehouses");
    }

    /** Warehouse numbers in order as ranges for a reader: {@code 7, 63..100}. */
    public static String ranges(List<Integer> warehouses) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < warehouses.size(); i++) {
            int from = warehouses.get(i);
            while (i + 1 < warehouses.size() && warehouses.get(i + 1) == warehouses.get(i) + 1) {
                i++;
            }
            int to = warehouses.get(i);
            s.append(s.length() > 0 ? ", " : "").append(from).append(to > from ? ".." + to : "");
        }
        return s.toString();
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

package dev.gauntlet.script;

import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What two databases' pgbench tables must agree on to be the same tables: every catalog fact a user or a query plan
 * can see (relations with their kind, persistence, options and partition bounds; columns with types, nullability and
 * defaults; constraints; indexes; inheritance; which columns have statistics) and every row (an md5 of each table's
 * rows in order). Object ids, sizes and row estimates are left out: they differ between any two loads.
 */
final class TablesFingerprint {

    private static final String RELATIONS = "SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
            + "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname LIKE 'pgbench\\_%'";

    private static final Map<String, String> CATALOG = new LinkedHashMap<>();

    static {
        CATALOG.put("relations", "SELECT c.relname, c.relkind, c.relpersistence, "
                + "coalesce(array_to_string(c.reloptions, ','), '') AS reloptions, "
                + "coalesce(pg_get_expr(c.relpartbound, c.oid), '') AS bound, "
                + "CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) ELSE '' END AS partition_key "
                + "FROM pg_catalog.pg_class c WHERE c.oid IN (" + RELATIONS + ") ORDER BY 1");
        CATALOG.put("columns", "SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod) AS type, "
                + "a.attnotnull, coalesce(pg_get_expr(d.adbin, d.adrelid), '') AS default "
                + "FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid "
                + "LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                + "WHERE c.oid IN (" + RELATIONS + ") AND c.relkind IN ('r', 'p') AND a.attnum > 0 "
                + "AND NOT a.attisdropped ORDER BY 1, 2");
        CATALOG.put("constraints", "SELECT k.conrelid::regclass::text AS rel, k.conname, k.contype, "
                + "pg_get_constraintdef(k.oid) AS definition FROM pg_catalog.pg_constraint k "
                + "WHERE k.conrelid IN (" + RELATIONS + ") ORDER BY 1, 2");
        CATALOG.put("indexes", "SELECT i.indexrelid::regclass::text AS index, pg_get_indexdef(i.indexrelid) AS definition "
                + "FROM pg_catalog.pg_index i WHERE i.indrelid IN (" + RELATIONS + ") ORDER BY 1");
        CATALOG.put("inheritance", "SELECT i.inhrelid::regclass::text AS child, i.inhparent::regclass::text AS parent "
                + "FROM pg_catalog.pg_inherits i WHERE i.inhrelid IN (" + RELATIONS + ") ORDER BY 1");
        CATALOG.put("statistics", "SELECT s.tablename, s.attname, s.inherited FROM pg_catalog.pg_stats s "
                + "WHERE s.schemaname = current_schema() AND s.tablename LIKE 'pgbench\\_%' ORDER BY 1, 2, 3");
    }

    /** Each table's rows in key order: their count and the md5 of their text. */
    private static final Map<String, String> DATA = Map.of(
            "pgbench_branches", "bid",
            "pgbench_tellers", "tid",
            "pgbench_accounts", "aid",
            "pgbench_history", "t::text");

    private TablesFingerprint() {
    }

    /** Every catalog fact, one line each, under its heading. */
    static Map<String, List<String>> catalog(TestDatabase db) throws SQLException {
        Map<String, List<String>> facts = new LinkedHashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (Map.Entry<String, String> query : CATALOG.entrySet()) {
                facts.put(query.getKey(), lines(s, query.getValue()));
            }
        }
        return facts;
    }

    /** Each table's row count and the md5 of its rows in order. */
    static Map<String, String> data(TestDatabase db) throws SQLException {
        Map<String, String> data = new LinkedHashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String table : List.of("pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history")) {
                List<String> row = lines(s, "SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY "
                        + DATA.get(table) + "), '')) FROM " + table + " AS t");
                data.put(table, row.get(0));
            }
        }
        return data;
    }

    private static List<String> lines(Statement s, String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                StringBuilder line = new StringBuilder();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    line.append(i > 1 ? " | " : "").append(meta.getColumnLabel(i)).append('=').append(rs.getString(i));
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }
}

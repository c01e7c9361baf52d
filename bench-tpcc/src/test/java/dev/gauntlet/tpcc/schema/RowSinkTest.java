package dev.gauntlet.tpcc.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Both load paths write the same values: COPY (PostgreSQL) and multi-row INSERT (CockroachDB's path, which
 * PostgreSQL accepts too, so it is exercised here), including quotes, tabs, backslashes, NULLs, negative
 * fixed-point values and more rows than one INSERT statement carries.
 */
@ExtendWith(PostgresExtension.class)
class RowSinkTest {

    static TestDatabase db;

    @BeforeAll
    static void createTables(TestDatabase server) throws SQLException {
        db = server.freshDatabase("tpcc_row_sinks");
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            for (String t : List.of("via_copy", "via_insert")) {
                s.execute("CREATE TABLE " + t + " (a int, b decimal(6,2), c varchar(40), d timestamp, e decimal(4,4))");
            }
        }
    }

    private static void write(RowSink sink) throws SQLException {
        try (sink) {
            for (int i = 1; i <= 1_203; i++) {
                sink.integer(i).decimal(i % 2 == 0 ? -i : i * 101L, 2);
                if (i % 7 == 0) {
                    sink.nul();
                } else {
                    sink.text(i % 5 == 0 ? "O'Neil\ttab\\slash " + i : "row " + i);
                }
                sink.timestamp("2026-11-22 10:00:00").decimal(i % 2000, 4);
                sink.endRow();
            }
            assertEquals(1_203, sink.rows());
        }
    }

    private static List<String> rows(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT a, b, c, d, e FROM " + table + " ORDER BY a")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "|" + rs.getBigDecimal(2) + "|" + rs.getString(3) + "|" + rs.getTimestamp(4)
                        + "|" + rs.getBigDecimal(5));
            }
        }
        return out;
    }

    @Test
    void copyAndInsertLoadIdenticalRows() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            write(new CopyRowSink(c, "via_copy", "a, b, c, d, e"));
            write(new InsertRowSink(c, "via_insert", "a, b, c, d, e"));
            List<String> copied = rows(c, "via_copy");
            assertEquals(1_203, copied.size());
            assertEquals(copied, rows(c, "via_insert"));
            assertEquals("2|-0.02|row 2|2026-11-22 10:00:00.0|0.0002", copied.get(1));
            assertEquals("5|5.05|O'Neil\ttab\\slash 5|2026-11-22 10:00:00.0|0.0005", copied.get(4));
            assertEquals("7|7.07|null|2026-11-22 10:00:00.0|0.0007", copied.get(6));
        }
    }
}

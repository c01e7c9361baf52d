package dev.gauntlet.sql;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * A ledger's records into a table of the database as one {@code COPY ... FROM STDIN}, in the text format, written as
 * the ledger's file is read and sent 64 KiB at a time: no more of the ledger in memory than that, whatever its
 * length. Then {@code ANALYZE}d: a temporary table is never analyzed on its own, and a ledger of millions of rows
 * would be joined as if it held a few.
 */
public final class LedgerCopy {

    private static final int BUFFER = 1 << 16;

    /** What writes the rows: tab-separated columns, one line each. */
    @FunctionalInterface
    public interface Rows {
        void writeTo(Writer out) throws IOException;
    }

    private LedgerCopy() {
    }

    /** Streams {@code rows} into {@code table} ({@code "t"} or {@code "t (a, b)"}), then analyzes it. */
    public static void into(Connection c, String table, Rows rows) throws SQLException {
        try (Writer w = new BufferedWriter(new OutputStreamWriter(new PGCopyOutputStream(c.unwrap(PGConnection.class),
                "COPY " + table + " FROM STDIN", BUFFER), StandardCharsets.UTF_8), BUFFER)) {
            rows.writeTo(w);
        } catch (IOException e) {
            throw new SQLException("could not copy a ledger into " + table + ": " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
            s.execute("ANALYZE " + table.split(" ")[0]);
        }
    }
}

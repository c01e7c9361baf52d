package dev.gauntlet.tpcc.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Durability seen from the client: every New-Order the driver heard commit must be in the database after the run,
 * as that order. The ledger's orders (key, customer, line count, the entry time the driver stored) are copied into a
 * temporary table and compared with the orders: a key that is absent, or whose row holds another order, is a lost
 * order, listed. The key alone is not enough: an order lost with its district's {@code d_next_o_id} bump (a failover
 * to a standby that missed it) leaves its id to the district's next New-Order, which commits under the same key.
 * Orders whose commit was ambiguous are not expected either way and only counted.
 */
public final class NothingLost {

    public static final String NAME = "nothing lost: every committed New-Order is in the database";
    private static final int LISTED = 20;

    private NothingLost() {
    }

    public static Check run(Connection c, CommittedOrders orders) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMP TABLE tpcc_committed (w int, d int, o int, c int, n int, e timestamp) "
                    + "ON COMMIT DROP");
            copy(c, orders);
            // A temporary table is never analyzed on its own: without statistics a ledger of millions of orders
            // would be joined as if it held a few.
            s.execute("ANALYZE tpcc_committed");
            List<String> taken = new ArrayList<>();
            List<String> absent = new ArrayList<>();
            long count = 0;
            long replaced = 0;
            try (ResultSet rs = s.executeQuery("SELECT k.w, k.d, k.o, o.o_id IS NOT NULL, count(*) OVER (), "
                    + "count(o.o_id) OVER () FROM tpcc_committed k "
                    + "LEFT JOIN \"order\" o ON o.o_w_id = k.w AND o.o_d_id = k.d AND o.o_id = k.o "
                    + "WHERE o.o_id IS NULL OR o.o_c_id IS DISTINCT FROM k.c OR o.o_ol_cnt IS DISTINCT FROM k.n "
                    + "OR o.o_entry_d IS DISTINCT FROM k.e ORDER BY k.w, k.d, k.o LIMIT " + LISTED)) {
                while (rs.next()) {
                    (rs.getBoolean(4) ? taken : absent).add(rs.getInt(1) + "/" + rs.getInt(2) + "/" + rs.getInt(3));
                    count = rs.getLong(5);
                    replaced = rs.getLong(6);
                }
            }
            c.rollback();
            String ambiguous = orders.uncertainCount() == 0 ? ""
                    : "; " + orders.uncertainCount() + " more had an ambiguous commit (not expected either way)";
            if (count == 0) {
                return Check.pass(NAME, String.format(Locale.ROOT,
                        "all %,d New-Orders the driver saw commit are there, each as the order it placed%s",
                        orders.size(), ambiguous));
            }
            return Check.fail(NAME, String.format(Locale.ROOT,
                    "%,d of %,d New-Orders the driver saw commit are lost (warehouse/district/order): %s, %s%s%s",
                    count, orders.size(), listed(replaced, "whose key another order took", taken),
                    listed(count - replaced, "absent", absent), count > LISTED ? " (the first " + LISTED + " listed)"
                            : "", ambiguous));
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /**
     * The ledger into {@code tpcc_committed} as one COPY, written as it is read from the ledger's file, 64 KiB at a
     * time: no more of it in memory than that, whatever its length.
     */
    private static void copy(Connection c, CommittedOrders orders) throws SQLException {
        CopyIn copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY tpcc_committed FROM STDIN");
        try {
            StringBuilder rows = new StringBuilder(1 << 16);
            orders.forEach(o -> {
                rows.append(o.warehouse()).append('\t').append(o.district()).append('\t').append(o.orderId())
                        .append('\t').append(o.customer()).append('\t').append(o.lines()).append('\t')
                        .append(o.entered()).append('\n');
                if (rows.length() > (1 << 16) - 100) {
                    write(copy, rows);
                }
            });
            write(copy, rows);
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    private static void write(CopyIn copy, StringBuilder rows) throws SQLException {
        byte[] bytes = rows.toString().getBytes(StandardCharsets.US_ASCII);
        rows.setLength(0);
        copy.writeToCopy(bytes, 0, bytes.length);
    }

    private static String listed(long count, String what, List<String> keys) {
        return String.format(Locale.ROOT, "%,d %s", count, what)
                + (keys.isEmpty() ? "" : " (" + String.join(", ", keys) + (count > keys.size() ? ", ..." : "") + ")");
    }
}

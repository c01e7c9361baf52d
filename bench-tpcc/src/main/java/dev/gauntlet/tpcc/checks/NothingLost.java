package dev.gauntlet.tpcc.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.LedgerCopy;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
            LedgerCopy.into(c, "tpcc_committed", out -> orders.forEach(o -> out.write(o.warehouse() + "\t"
                    + o.district() + "\t" + o.orderId() + "\t" + o.customer() + "\t" + o.lines() + "\t" + o.entered()
                    + "\n")));
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

    private static String listed(long count, String what, List<String> keys) {
        return String.format(Locale.ROOT, "%,d %s", count, what)
                + (keys.isEmpty() ? "" : " (" + String.join(", ", keys) + (count > keys.size() ? ", ..." : "") + ")");
    }
}

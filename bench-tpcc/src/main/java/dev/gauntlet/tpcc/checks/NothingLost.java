package dev.gauntlet.tpcc.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * Durability seen from the client: every New-Order the driver heard commit must be in the database after the run.
 * The keys are copied into a temporary table and anti-joined with the orders; the missing ones are listed. Orders
 * whose commit was ambiguous are not expected either way and only counted.
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
            s.execute("CREATE TEMP TABLE tpcc_committed (w int, d int, o int) ON COMMIT DROP");
            StringBuilder rows = new StringBuilder();
            orders.forEach(k -> rows.append(CommittedOrders.warehouse(k)).append('\t')
                    .append(CommittedOrders.district(k)).append('\t').append(CommittedOrders.orderId(k)).append('\n'));
            try {
                c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY tpcc_committed FROM STDIN",
                        new StringReader(rows.toString()));
            } catch (IOException e) {
                throw new SQLException("could not copy the committed keys: " + e.getMessage(), e);
            }
            List<String> missing = new ArrayList<>();
            long count;
            try (ResultSet rs = s.executeQuery("SELECT w, d, o, count(*) OVER () FROM tpcc_committed k "
                    + "WHERE NOT EXISTS (SELECT 1 FROM \"order\" WHERE o_w_id = k.w AND o_d_id = k.d AND o_id = k.o) "
                    + "ORDER BY w, d, o LIMIT " + LISTED)) {
                count = 0;
                while (rs.next()) {
                    missing.add(rs.getInt(1) + "/" + rs.getInt(2) + "/" + rs.getInt(3));
                    count = rs.getLong(4);
                }
            }
            c.rollback();
            String ambiguous = orders.uncertainCount() == 0 ? ""
                    : "; " + orders.uncertainCount() + " more had an ambiguous commit (not expected either way)";
            if (count == 0) {
                return Check.pass(NAME, String.format(java.util.Locale.ROOT,
                        "all %,d New-Orders the driver saw commit are there%s", orders.size(), ambiguous));
            }
            return Check.fail(NAME, String.format(java.util.Locale.ROOT,
                    "%,d of %,d New-Orders the driver saw commit are missing (warehouse/district/order): %s%s%s",
                    count, orders.size(), String.join(", ", missing), count > LISTED ? ", ..." : "", ambiguous));
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}

package dev.gauntlet.tpcc.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.schema.Loader;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import dev.gauntlet.tpcc.workload.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The "nothing lost" check finds every committed order, and names one that was deleted. */
@ExtendWith(PostgresExtension.class)
class NothingLostTest {

    static TestDatabase db;

    @BeforeAll
    static void load(TestDatabase server) throws SQLException, InterruptedException {
        db = server.freshDatabase("nothing_lost_test");
        new Loader(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()), Dialect.POSTGRES, 1, 7L, System.out)
                .load(1);
    }

    /** The loaded orders of district 1 and 2 as if the driver had heard them commit (as they are stored). */
    private static CommittedOrders ledger() throws SQLException {
        CommittedOrders orders = new CommittedOrders();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT o_w_id, o_d_id, o_id, o_c_id, o_ol_cnt, o_entry_d FROM \"order\" WHERE o_w_id = 1 "
                        + "AND o_d_id <= 2 ORDER BY 1, 2, 3")) {
            while (rs.next()) {
                orders.committed(new CommittedOrders.Order(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4),
                        rs.getInt(5), rs.getObject(6, LocalDateTime.class)));
            }
        }
        return orders;
    }

    @Test
    void everyCommittedOrderFoundPasses() throws SQLException {
        try (Connection c = db.connect()) {
            Check check = NothingLost.run(c, ledger());
            assertEquals(Check.Status.PASS, check.status(), check.detail());
            assertEquals("all 6,000 New-Orders the driver saw commit are there, each as the order it placed",
                    check.detail());
        }
    }

    @Test
    void aDeletedCommittedOrderFailsTheCheckByName() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = 2999");
                s.execute("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 2 AND no_o_id = 2999");
                assertEquals(1, s.executeUpdate("DELETE FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 2 AND o_id = 2999"));
            }
            CommittedOrders orders = ledger();
            LocalDateTime entered = LocalDateTime.of(2026, 11, 26, 10, 0, 0, 123_456_000);
            orders.committed(new CommittedOrders.Order(1, 3, 4500, 7, 5, entered)); // never placed at all
            orders.committed(new CommittedOrders.Order(1, 1, 17, 99, 5, entered)); // its key holds another order
            Check check = NothingLost.run(c, orders); // sees the deletion; its own rollback undoes it
            assertEquals(Check.Status.FAIL, check.status());
            assertEquals("3 of 6,002 New-Orders the driver saw commit are lost (warehouse/district/order): 1 whose key "
                    + "another order took (1/1/17), 2 absent (1/2/2999, 1/3/4500)", check.detail());
            c.setAutoCommit(true);
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 2")) {
                rs.next();
                assertEquals(3000, rs.getLong(1), "the deletion was rolled back with the check");
            }
        }
        try (Connection c = db.connect()) {
            assertTrue(NothingLost.run(c, ledger()).status() == Check.Status.PASS);
        }
    }
}

package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.schema.Loader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * New-Order committed through the runner's target against two loaded warehouses on a real PostgreSQL (a remote
 * order line needs the second): what a rolled-back and a committed order leave in the tables, and what each counts.
 */
@ExtendWith(PostgresExtension.class)
class NewOrderTest {

    static TestDatabase db;

    @BeforeAll
    static void load(TestDatabase server) throws SQLException, InterruptedException {
        db = server.freshDatabase("tpcc_new_order");
        new Loader(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()), Dialect.POSTGRES,
                Runtime.getRuntime().availableProcessors(), 1L, System.out).load(2);
    }

    private static Map<String, Long> counts(Connection c) throws Exception {
        Map<String, Long> m = new HashMap<>();
        try (Statement s = c.createStatement()) {
            for (String q : List.of("SELECT count(*) FROM \"order\"", "SELECT count(*) FROM new_order",
                    "SELECT count(*) FROM order_line", "SELECT sum(d_next_o_id) FROM district",
                    "SELECT sum(s_order_cnt) FROM stock")) {
                try (ResultSet rs = s.executeQuery(q)) {
                    rs.next();
                    m.put(q, rs.getLong(1));
                }
            }
        }
        return m;
    }

    @Test
    void aRolledBackNewOrderLeavesNoTraceAndACommittedOneLeavesExactlyItsRows() throws Exception {
        ConnectionSettings settings = new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
        try (JdbcTarget target = JdbcTarget.direct(settings); Connection c = target.open()) {
            Map<String, Long> before = counts(c);
            c.commit();
            NewOrder rollback = new NewOrder(1, 3, 7, new NewOrder.Line[] {
                    new NewOrder.Line(5, 1, 3), new NewOrder.Line(Scale.UNUSED_ITEM_ID, 1, 1)}, true);
            target.transact(c, rollback, new dev.gauntlet.core.run.Attempt());
            assertEquals(before, counts(c), "the unused item rolled everything back");
            c.commit();
            Map<String, Long> counted = new HashMap<>();
            rollback.committed((name, n) -> counted.merge(name, n, Long::sum));
            assertEquals(Map.of("rolledBack", 1L), counted);

            NewOrder ok = new NewOrder(1, 3, 7, new NewOrder.Line[] {
                    new NewOrder.Line(5, 1, 3), new NewOrder.Line(9, 2, 1)}, false);
            target.transact(c, ok, new dev.gauntlet.core.run.Attempt());
            Map<String, Long> after = counts(c);
            c.commit();
            assertEquals(before.get("SELECT count(*) FROM \"order\"") + 1, after.get("SELECT count(*) FROM \"order\""));
            assertEquals(before.get("SELECT count(*) FROM new_order") + 1, after.get("SELECT count(*) FROM new_order"));
            assertEquals(before.get("SELECT count(*) FROM order_line") + 2, after.get("SELECT count(*) FROM order_line"));
            assertEquals(before.get("SELECT sum(d_next_o_id) FROM district") + 1,
                    after.get("SELECT sum(d_next_o_id) FROM district"));
            assertEquals(before.get("SELECT sum(s_order_cnt) FROM stock") + 2, after.get("SELECT sum(s_order_cnt) FROM stock"));
            counted.clear();
            ok.committed((name, n) -> counted.merge(name, n, Long::sum));
            assertEquals(Map.of("orderLines", 2L, "remoteOrderLines", 1L), counted);
        }
    }

    /**
     * What an asynchronous failover does to an order: it commits and the driver records it; the standby that is
     * promoted never had it, so its rows are gone and the district's {@code d_next_o_id} is one lower; the district's
     * next New-Order then commits under the same key. A check of keys would find that key present; the check FAILs
     * naming the lost order, in both transaction modes.
     */
    @Test
    void anOrderLostWithItsDistrictsIdBumpIsNamedThoughTheNextOrderTookItsKey() throws Exception {
        ConnectionSettings settings = new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
        try (JdbcTarget target = JdbcTarget.direct(settings); Connection c = target.open()) {
            c.setAutoCommit(true);
            dev.gauntlet.tpcc.schema.Procedures.ensure(c);
            c.setAutoCommit(false);
            for (TransactionMode mode : TransactionMode.values()) {
                int district = mode == TransactionMode.STATEMENTS ? 5 : 6;
                CommittedOrders ledger = new CommittedOrders();
                NewOrder first = new NewOrder(1, district, 11, new NewOrder.Line[] {
                        new NewOrder.Line(5, 1, 3), new NewOrder.Line(8, 1, 2)}, false, ledger);
                target.transact(c, mode.operation(first), new dev.gauntlet.core.run.Attempt());
                CommittedOrders.Order lost = first.placedOrder();
                ledger.committed(lost);
                try (Statement s = c.createStatement()) {
                    s.execute("DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = " + district + " AND ol_o_id = "
                            + lost.orderId());
                    s.execute("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = " + district
                            + " AND no_o_id = " + lost.orderId());
                    assertEquals(1, s.executeUpdate("DELETE FROM \"order\" WHERE o_w_id = 1 AND o_d_id = "
                            + district + " AND o_id = " + lost.orderId()));
                    assertEquals(1, s.executeUpdate("UPDATE district SET d_next_o_id = " + lost.orderId()
                            + " WHERE d_w_id = 1 AND d_id = " + district));
                }
                c.commit();
                NewOrder next = new NewOrder(1, district, 12, new NewOrder.Line[] {
                        new NewOrder.Line(5, 1, 3), new NewOrder.Line(8, 1, 2)}, false, ledger);
                target.transact(c, mode.operation(next), new dev.gauntlet.core.run.Attempt());
                ledger.committed(next.placedOrder());
                assertEquals(lost.orderId(), next.placedOrder().orderId(), "the next order took the lost one's key");

                dev.gauntlet.core.result.Check check = dev.gauntlet.tpcc.checks.NothingLost.run(c, ledger);
                assertEquals(dev.gauntlet.core.result.Check.Status.FAIL, check.status(), mode + ": " + check.detail());
                assertEquals("1 of 2 New-Orders the driver saw commit are lost (warehouse/district/order): 1 whose key "
                        + "another order took (1/" + district + "/" + lost.orderId() + "), 0 absent", check.detail());
            }
        }
    }
}

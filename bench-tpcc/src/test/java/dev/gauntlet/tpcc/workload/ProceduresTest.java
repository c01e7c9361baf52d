package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.Failure;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.schema.Loader;
import dev.gauntlet.tpcc.schema.Procedures;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each procedure against its statements-mode twin on a real PostgreSQL with two loaded warehouses: the same inputs,
 * run once each way in a transaction that is then rolled back, leave the same rows changed (timestamps aside), the
 * same New-Order rows taken, and count the same.
 */
@ExtendWith(PostgresExtension.class)
class ProceduresTest {

    static TestDatabase db;

    /** The tables a transaction can change; timestamps are compared only as set or not. */
    private static final List<String> TABLES = List.of("warehouse", "district", "customer", "history", "\"order\"",
            "order_line", "stock");

    @BeforeAll
    static void load(TestDatabase server) throws SQLException, InterruptedException {
        db = server.freshDatabase("procedures_test");
        new Loader(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()), Dialect.POSTGRES, 2, 11L,
                System.out).load(2);
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            Procedures.install(c);
            assertEquals(Procedures.VERSION, Procedures.installedVersion(c));
            assertFalse(Procedures.ensure(c), "an installed version is not installed again");
        }
    }

    /** What a transaction leaves behind, and what it counted. */
    private record Effect(Map<String, String> changedRows, String newOrders, Map<String, Long> counted) {
    }

    /**
     * Runs {@code work} (statements or a call) in a transaction, reads the rows it wrote (those whose xmin is this
     * transaction) and the new_order rows left per district, then rolls it all back.
     */
    private static Effect effect(TransactionMode.Procedural tx, boolean call, String setup) throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            if (setup != null) {
                try (Statement s = c.createStatement()) {
                    s.execute(setup);
                }
            }
            if (call) {
                tx.call(c);
            } else {
                tx.execute(c, new dev.gauntlet.core.run.Attempt());
            }
            Map<String, String> rows = new LinkedHashMap<>();
            for (String table : TABLES) {
                rows.put(table, query(c, "SELECT coalesce(string_agg(r, E'\\n' ORDER BY r), '') FROM (SELECT "
                        + "(to_jsonb(t) - '{o_entry_d,h_date,ol_delivery_d}'::text[])::text AS r FROM " + table
                        + " t WHERE t.xmin::text::bigint = txid_current() % 4294967296) x"));
            }
            rows.put("delivered lines", query(c, "SELECT count(*) FROM order_line WHERE ol_delivery_d IS NOT NULL "
                    + "AND xmin::text::bigint = txid_current() % 4294967296"));
            String newOrders = query(c, "SELECT string_agg(no_w_id || '/' || no_d_id || ': ' || n || ' from ' || o, ', ' "
                    + "ORDER BY no_w_id, no_d_id) FROM (SELECT no_w_id, no_d_id, count(*) AS n, min(no_o_id) AS o "
                    + "FROM new_order GROUP BY 1, 2) x");
            Map<String, Long> counted = new TreeMap<>();
            tx.committed((name, n) -> counted.merge(name, n, Long::sum));
            c.rollback();
            return new Effect(rows, newOrders, counted);
        }
    }

    private static String query(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void assertSameEffect(TransactionMode.Procedural statements, TransactionMode.Procedural call,
                                         String setup) throws Exception {
        Effect a = effect(statements, false, setup);
        Effect b = effect(call, true, setup);
        for (String table : a.changedRows().keySet()) {
            assertEquals(a.changedRows().get(table), b.changedRows().get(table), table);
        }
        assertEquals(a.newOrders(), b.newOrders(), "new_order rows per district");
        assertEquals(a.counted(), b.counted(), "counters");
    }

    private static NewOrder order(boolean rollback, int[] items, int[] supply) {
        NewOrder.Line[] lines = new NewOrder.Line[items.length];
        for (int i = 0; i < items.length; i++) {
            lines[i] = new NewOrder.Line(items[i], supply[i], i + 1);
        }
        return new NewOrder(1, 3, 7, lines, rollback);
    }

    @Test
    void aCommittedNewOrderWithARemoteLineChangesTheSameRows() throws Exception {
        int[] items = {5, 9, 12, 40};
        int[] supply = {1, 1, 1, 2};
        Effect e = effect(order(false, items, supply), false, null);
        assertTrue(e.changedRows().get("order_line").lines().count() == 4, e.changedRows().get("order_line"));
        assertSameEffect(order(false, items, supply), order(false, items, supply), null);
    }

    @Test
    void aRolledBackNewOrderChangesNothingEitherWay() throws Exception {
        int[] items = {5, Scale.UNUSED_ITEM_ID};
        int[] supply = {1, 1};
        Effect e = effect(order(true, items, supply), true, null);
        assertTrue(e.changedRows().values().stream().allMatch(v -> v.isEmpty() || v.equals("0")), e.toString());
        assertEquals(Map.of("rolledBack", 1L), e.counted());
        assertSameEffect(order(true, items, supply), order(true, items, supply), null);
    }

    @Test
    void aNewOrderMeetingAMissingStockRowFailsFatallyInProceduresModeToo() throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM stock WHERE s_w_id = 1 AND s_i_id = 9");
            }
            Exception e = assertThrows(Exception.class, () -> order(false, new int[] {5, 9}, new int[] {1, 1}).call(c));
            assertEquals(Failure.Kind.FATAL, SqlStates.classify(e).kind(), e::toString);
            assertTrue(e.getMessage().contains("no stock row for item 9 at warehouse 1"), e.getMessage());
            c.rollback();
        }
    }

    @Test
    void aPaymentByNameAtARemoteWarehouseChangesTheSameRows() throws Exception {
        String name;
        try (Connection c = db.connect()) {
            name = query(c, "SELECT c_last FROM customer WHERE c_w_id = 2 AND c_d_id = 5 AND c_credit = 'BC' "
                    + "ORDER BY c_id LIMIT 1");
        }
        CustomerChoice byName = new CustomerChoice(2, 5, name, 0);
        BigDecimal amount = BigDecimal.valueOf(123_45, 2);
        assertSameEffect(new Payment(1, 4, byName, amount), new Payment(1, 4, byName, amount), null);
        CustomerChoice byId = new CustomerChoice(1, 4, null, 99);
        assertSameEffect(new Payment(1, 4, byId, amount), new Payment(1, 4, byId, amount), null);
    }

    @Test
    void aDeliveryWithASkippedDistrictChangesTheSameRows() throws Exception {
        String skip = "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 4";
        Effect e = effect(new Delivery(1, 6), true, skip);
        assertEquals(Map.of("districts", 10L, "skippedDistricts", 1L, "withSkippedDistricts", 1L), e.counted());
        assertSameEffect(new Delivery(1, 6), new Delivery(1, 6), skip);
    }

    @Test
    void orderStatusAndStockLevelReadTheSame() throws Exception {
        String name;
        try (Connection c = db.connect()) {
            name = query(c, "SELECT c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 2 ORDER BY c_id LIMIT 1");
        }
        for (CustomerChoice who : List.of(new CustomerChoice(1, 2, name, 0), new CustomerChoice(1, 2, null, 17))) {
            OrderStatus statements = new OrderStatus(who);
            OrderStatus call = new OrderStatus(who);
            try (Connection c = db.connect()) {
                statements.execute(c);
                call.call(c);
            }
            assertEquals(statements.shown(), call.shown(), who.toString());
            assertTrue(call.shown().lines() > 0, call.shown().toString());
        }
        try (Connection c = db.connect()) {
            new StockLevel(1, 2, 15).call(c);
        }
    }
}

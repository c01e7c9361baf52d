package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.schema.Loader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transactions one at a time against one loaded warehouse on a real PostgreSQL. Each test works inside
 * a transaction it rolls back, so the data stays as loaded for the next.
 */
@ExtendWith(PostgresExtension.class)
class TransactionsTest {

    static TestDatabase db;

    @BeforeAll
    static void load(TestDatabase server) throws SQLException, InterruptedException {
        db = server.freshDatabase("transactions_test");
        new Loader(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()), Dialect.POSTGRES, 2, 7L,
                System.out).load(1);
    }

    /** A connection inside a transaction, for work that is rolled back. */
    private static Connection transaction() throws SQLException {
        Connection c = db.connect();
        c.setAutoCommit(false);
        return c;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** What the operation counted when it committed. */
    private static Map<String, Long> counted(java.util.function.Consumer<dev.gauntlet.core.metrics.Counters> committed) {
        Map<String, Long> counters = new TreeMap<>();
        committed.accept((name, n) -> counters.merge(name, n, Long::sum));
        return counters;
    }

    @Test
    void aDeliveryThatSkipsADistrictIsCountedOnceAsATransactionThatSkipped() throws SQLException {
        try (Connection c = transaction()) {
            Delivery complete = new Delivery(1, 3);
            complete.execute(c);
            assertEquals(Map.of("districts", 10L, "skippedDistricts", 0L), counted(complete::committed));

            execute(c, "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id IN (4, 7)");
            Delivery skipping = new Delivery(1, 3);
            skipping.execute(c);
            assertEquals(Map.of("districts", 10L, "skippedDistricts", 2L, "withSkippedDistricts", 1L),
                    counted(skipping::committed));
            c.rollback();
        }
    }

    /** An order of warehouse 1, district 3, customer 7, one of each item from warehouse 1. */
    private static NewOrder order(boolean rollback, int... items) {
        NewOrder.Line[] lines = new NewOrder.Line[items.length];
        for (int i = 0; i < items.length; i++) {
            lines[i] = new NewOrder.Line(items[i], 1, 2);
        }
        return new NewOrder(1, 3, 7, lines, rollback);
    }

    private static long orders(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 3")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aNewOrderThatFindsAStockRowMissingFailsFatallyNamingItWhileTheUnusedItemStillRollsBack()
            throws SQLException {
        try (Connection c = transaction()) {
            execute(c, "DELETE FROM stock WHERE s_w_id = 1 AND s_i_id = 9");

            Exception e = assertThrows(Exception.class, () -> order(false, 5, 9, 12).execute(c));
            assertEquals(Failure.Kind.FATAL, SqlStates.classify(e).kind(), e::toString);
            assertEquals("damaged data: New-Order of warehouse 1 district 3 found no stock row for item 9 at "
                    + "warehouse 1 (only item 100001 is meant to be missing); reload with init --drop", e.getMessage());
            c.rollback();

            long before = orders(c);
            NewOrder unused = order(true, 5, Scale.UNUSED_ITEM_ID);
            unused.execute(c);
            assertEquals(before, orders(c), "the deliberately unused item still rolls the order back");
            assertEquals(Map.of("rolledBack", 1L), counted(unused::committed));
            c.rollback();
        }
    }

    @Test
    void aNewOrderThatFindsAnItemMissingFailsFatallyNamingIt() throws SQLException {
        // Committed damage, as a run meets it: the failed order's statement rolls back what its transaction did.
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            execute(c, "CREATE TABLE item_kept AS SELECT * FROM item WHERE i_id = 12");
            execute(c, "DELETE FROM item WHERE i_id = 12");
            try {
                long before = orders(c);
                Exception e = assertThrows(Exception.class, () -> order(false, 5, 12).execute(c));
                assertEquals(Failure.Kind.FATAL, SqlStates.classify(e).kind(), e::toString);
                assertEquals("damaged data: New-Order of warehouse 1 district 3 found no item 12 (only item 100001 is "
                        + "meant to be missing); reload with init --drop", e.getMessage());
                // Damage shows even in an order that was going to roll back on the unused item.
                assertThrows(Exception.class, () -> order(true, 12, Scale.UNUSED_ITEM_ID).execute(c));
                assertEquals(before, orders(c), "a damaged order leaves nothing behind");
            } finally {
                execute(c, "INSERT INTO item SELECT * FROM item_kept");
                execute(c, "DROP TABLE item_kept");
            }
        }
    }

    @Test
    void anOrderMeantToRollBackThatFindsTheUnusedItemInStockFailsInItsOwnStatementAndLeavesNothing()
            throws SQLException {
        // In auto-commit the statement is the commit: an order meant to roll back must fail in the statement, not
        // after it, or it would be committed before the driver could see that the unused item id was there.
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            execute(c, "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (" + Scale.UNUSED_ITEM_ID
                    + ", 1, 'not meant to exist', 1.00, 'data')");
            execute(c, "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, "
                    + "s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, "
                    + "s_remote_cnt, s_data) SELECT " + Scale.UNUSED_ITEM_ID + ", s_w_id, s_quantity, s_dist_01, "
                    + "s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, "
                    + "s_dist_10, 0, 0, 0, s_data FROM stock WHERE s_w_id = 1 AND s_i_id = 5");
            try {
                long before = orders(c);
                Exception e = assertThrows(Exception.class, () -> order(true, 5, Scale.UNUSED_ITEM_ID).execute(c));
                assertEquals("damaged data: New-Order of warehouse 1 district 3 found item 100001, the id meant to be "
                        + "unused, in stock (only item 100001 is meant to be missing); reload with init --drop",
                        e.getMessage());
                assertEquals(before, orders(c), "the order was not committed");
            } finally {
                execute(c, "DELETE FROM stock WHERE s_i_id = " + Scale.UNUSED_ITEM_ID);
                execute(c, "DELETE FROM item WHERE i_id = " + Scale.UNUSED_ITEM_ID);
            }
        }
    }

    @Test
    void aDeliveryThatFindsANewOrderRowWithoutItsOrderFailsFatallyNamingItAndDeliversNothing() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            long oldest;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT min(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 6")) {
                rs.next();
                oldest = rs.getLong(1);
            }
            execute(c, "CREATE TABLE order_kept AS SELECT * FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = "
                    + oldest);
            execute(c, "DELETE FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = " + oldest);
            try {
                Exception e = assertThrows(Exception.class, () -> new Delivery(1, 4).execute(c));
                assertEquals(Failure.Kind.FATAL, SqlStates.classify(e).kind(), e::toString);
                assertEquals("damaged data: Delivery of warehouse 1 found new_order rows without an order: 6/" + oldest
                        + " (district/order); reload with init --drop", e.getMessage());
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT count(*) FROM \"order\" WHERE o_w_id = 1 AND o_carrier_id = 4 AND o_id >= 2101")) {
                    rs.next();
                    assertEquals(0, rs.getLong(1), "no district was delivered");
                }
            } finally {
                execute(c, "INSERT INTO \"order\" SELECT * FROM order_kept");
                execute(c, "DROP TABLE order_kept");
            }
        }
    }

    @Test
    void aRunThatMeetsDamagedDataStopsAndCountsNoNewOrder() throws Exception {
        ConnectionSettings settings = new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
        try (Connection c = db.connect()) {
            execute(c, "CREATE TABLE stock_kept AS SELECT * FROM stock WHERE s_w_id = 1 AND s_i_id = 9");
            execute(c, "DELETE FROM stock WHERE s_w_id = 1 AND s_i_id = 9");
        }
        try (JdbcTarget target = JdbcTarget.direct(settings)) {
            Workload<Connection> orders = new Workload<>() {
                @Override
                public List<String> operationNames() {
                    return List.of(NewOrder.NAME);
                }

                @Override
                public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
                    return () -> Step.now(order(false, 5, 9));
                }
            };
            RunRecord run = new Runner<>(RunPlan.closedLoop(1, Duration.ofSeconds(30)).withIterations(3), orders,
                    target, RunListener.NONE, null).run();

            assertTrue(run.failed(), run::toString);
            assertTrue(run.fatalError().contains("no stock row for item 9 at warehouse 1"), run.fatalError());
            assertEquals(0, run.operations().get(0).count(), "a New-Order on damaged data never counts as committed");
        } finally {
            try (Connection c = db.connect()) {
                execute(c, "INSERT INTO stock SELECT * FROM stock_kept");
                execute(c, "DROP TABLE stock_kept");
            }
        }
    }

    /**
     * Order-Status must read the customer and their last order in one snapshot. At READ COMMITTED (the
     * default on PostgreSQL) every statement takes its own snapshot, so that means one statement: a New-Order
     * or Delivery committed between two would otherwise pair the customer's state with an order from later.
     */
    @Test
    void orderStatusReadsTheCustomerAndTheirLastOrderInOneStatement() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            AtomicInteger statements = new AtomicInteger();
            Connection counting = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().startsWith("prepare") || method.getName().equals("createStatement")) {
                            statements.incrementAndGet();
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            new OrderStatus(new CustomerChoice(1, 3, null, 7)).execute(counting);
            assertEquals(1, statements.get(), "by id");
            statements.set(0);
            new OrderStatus(new CustomerChoice(1, 3, lastNameOf(c, 3, 7), 0)).execute(counting);
            assertEquals(1, statements.get(), "by last name, the lookup included");
            c.rollback();
        }
    }

    @Test
    void orderStatusShowsTheCustomersLastOrderByIdAndByName() throws SQLException {
        try (Connection c = transaction()) {
            // A newer order of customer 7 than the one loaded: Order-Status must show this one.
            order(false, 5, 9, 12).execute(c);
            int last = lastOrderOf(c, 3, 7);

            OrderStatus byId = new OrderStatus(new CustomerChoice(1, 3, null, 7));
            byId.execute(c);
            assertEquals(new OrderStatus.Shown(7, last, 3), byId.shown());

            // By name: the middle one, by first name, of the customers with that last name.
            String name = lastNameOf(c, 3, 7);
            List<Integer> named = customersNamed(c, 3, name);
            int middle = named.get((named.size() + 1) / 2 - 1);
            OrderStatus byName = new OrderStatus(new CustomerChoice(1, 3, name, 0));
            byName.execute(c);
            assertEquals(middle, byName.shown().customerId(), () -> name + ": " + named);
            assertEquals(lastOrderOf(c, 3, middle), byName.shown().orderId());
            assertEquals(middle, paidBy(c, new CustomerChoice(1, 3, name, 0)), "Payment picks the same customer");
            c.rollback();
        }
    }

    @Test
    void orderStatusFindsTheMiddleOfAnEvenNumberOfNamesakes() throws SQLException {
        try (Connection c = transaction()) {
            // Four customers named TESTNAME, first names in the reverse order of their ids: the 2nd is id 3.
            for (int id = 1; id <= 4; id++) {
                execute(c, "UPDATE customer SET c_last = 'TESTNAME', c_first = 'first" + (5 - id)
                        + "' WHERE c_w_id = 1 AND c_d_id = 6 AND c_id = " + id);
            }
            OrderStatus status = new OrderStatus(new CustomerChoice(1, 6, "TESTNAME", 0));
            status.execute(c);
            assertEquals(3, status.shown().customerId());
            assertEquals(3, paidBy(c, new CustomerChoice(1, 6, "TESTNAME", 0)));
            c.rollback();
        }
    }

    /** The customer a Payment by {@code who} credited, from the history row it wrote in this transaction. */
    private static int paidBy(Connection c, CustomerChoice who) throws SQLException {
        new Payment(1, 2, who, java.math.BigDecimal.TEN).execute(c);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT h_c_id FROM history WHERE xmin::text::bigint = txid_current() % 4294967296")) {
            rs.next();
            int id = rs.getInt(1);
            if (rs.next()) {
                throw new AssertionError("more than one history row in this transaction");
            }
            return id;
        }
    }

    private static String lastNameOf(Connection c, int district, int customer) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT c_last FROM customer WHERE c_w_id = 1 AND c_d_id = ? AND c_id = ?")) {
            s.setInt(1, district);
            s.setInt(2, customer);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static List<Integer> customersNamed(Connection c, int district, String lastName) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = ? "
                + "AND c_last = ? ORDER BY c_first, c_id")) {
            s.setInt(1, district);
            s.setString(2, lastName);
            List<Integer> ids = new java.util.ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
            }
            return ids;
        }
    }

    private static int lastOrderOf(Connection c, int district, int customer) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT max(o_id) FROM \"order\" WHERE o_w_id = 1 AND o_d_id = ? AND o_c_id = ?")) {
            s.setInt(1, district);
            s.setInt(2, customer);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}

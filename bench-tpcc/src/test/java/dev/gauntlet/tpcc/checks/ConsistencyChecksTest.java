package dev.gauntlet.tpcc.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.result.Check.Status;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.TpccCommand;
import dev.gauntlet.tpcc.schema.Loader;
import dev.gauntlet.tpcc.workload.Dialect;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * The twelve consistency conditions against one loaded warehouse on a real PostgreSQL: all hold right after
 * the load, and each is broken on purpose by a small committed corruption that is undone afterwards.
 *
 * <p>Each corruption is the smallest plausible one that breaks its condition, and each test asserts the
 * exact set of conditions that fail, so a check that is too broad fails a test as surely as one that is too
 * narrow. Two conditions cannot fail alone: 3.3.2.4 is 3.3.2.6 summed per district, and a change to w_ytd
 * breaks both 3.3.2.1 and 3.3.2.8.
 */
@ExtendWith(PostgresExtension.class)
class ConsistencyChecksTest {

    private static final String ALL_LOAD_TIME = "TIMESTAMP '2024-01-01 00:00:00'";

    static TestDatabase db;
    static TestDatabase server;

    @BeforeAll
    static void load(TestDatabase testServer) throws SQLException, InterruptedException {
        server = testServer;
        db = testServer.freshDatabase("consistency_checks_test");
        ConnectionSettings settings = new ConnectionSettings(db.jdbcUrl(), db.user(), db.password());
        new Loader(settings, Dialect.POSTGRES, 2, 42L, System.out).load(1);
    }

    /** Every corruption must be undone exactly, or the next test would start from broken data. */
    @AfterEach
    void dataIsAsLoadedAgain() throws SQLException {
        Map<String, Check> checks = runAll(true);
        assertEquals(Set.of(), failing(checks), () -> "a corruption was not undone: " + checks);
        assertEquals(Status.PASS, checks.get("3.3.2.11").status(), () -> "data no longer as loaded: " + checks);
    }

    @Test
    void everyConditionHoldsRightAfterTheLoad() throws SQLException {
        Map<String, Check> checks = runAll(true);

        assertEquals(12, checks.size());
        assertEquals(List.of("3.3.2.1", "3.3.2.2", "3.3.2.3", "3.3.2.4", "3.3.2.5", "3.3.2.6", "3.3.2.7", "3.3.2.8",
                "3.3.2.9", "3.3.2.10", "3.3.2.11", "3.3.2.12"), List.copyOf(checks.keySet()));
        checks.values().forEach(k -> assertEquals(Status.PASS, k.status(), k::toString));
        assertEquals("3.3.2.1 w_ytd = sum(d_ytd) per warehouse", checks.get("3.3.2.1").name());
    }

    @Test
    void expensiveConditionsAreSkippedUnlessAskedFor() throws SQLException {
        Map<String, Check> checks = runAll(false);

        for (String number : List.of("3.3.2.6", "3.3.2.10", "3.3.2.12")) {
            assertEquals(Status.SKIP, checks.get(number).status(), number);
            assertEquals("expensive; run check --expensive", checks.get(number).detail());
        }
        assertEquals(9, checks.values().stream().filter(k -> k.status() == Status.PASS).count(), checks::toString);
    }

    @Test
    void oneConditionRunsByNumberEvenWhenExpensive() throws SQLException {
        try (Connection c = db.connect()) {
            Check check = ConsistencyChecks.run(c, "3.3.2.10");
            assertEquals(Status.PASS, check.status());
            assertEquals("3.3.2.10 c_balance = sum(delivered ol_amount) - sum(h_amount) per customer", check.name());
            assertThrows(IllegalArgumentException.class, () -> ConsistencyChecks.run(c, "3.3.2.13"));
        }
    }

    @Test
    void warehouseYtdAheadOfItsDistricts() throws SQLException {
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE warehouse SET w_ytd = w_ytd + 10 WHERE w_id = 1",
                "UPDATE warehouse SET w_ytd = w_ytd - 10 WHERE w_id = 1"));

        assertEquals(Set.of("3.3.2.1", "3.3.2.8"), failing(checks));
        assertEquals("1 violation: w_id=1 w_ytd=300010.00 sum(d_ytd)=300000.00", checks.get("3.3.2.1").detail());
    }

    @Test
    void districtNextOrderIdAheadOfItsOrders() throws SQLException {
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 3",
                "UPDATE district SET d_next_o_id = d_next_o_id - 1 WHERE d_w_id = 1 AND d_id = 3"));

        assertEquals(Set.of("3.3.2.2"), failing(checks));
        assertEquals("1 violation: w_id=1 d_id=3 d_next_o_id=3002 max(o_id)=3000 max(no_o_id)=3000",
                checks.get("3.3.2.2").detail());
        assertEquals(Status.PASS, checks.get("3.3.2.11").status(), "a moved d_next_o_id says nothing of deliveries");
    }

    @Test
    void gapInNewOrders() throws SQLException {
        // A Delivery that took a middle order instead of the district's oldest.
        Map<String, Check> checks = runCorrupted(deliver(3, 2500).and(removeNewOrder(3, 2500)));

        assertEquals(Set.of("3.3.2.3", "3.3.2.11"), failing(checks));
        assertEquals("1 violation: w_id=1 d_id=3 min(no_o_id)=2101 max(no_o_id)=3000 count(new_order)=899",
                checks.get("3.3.2.3").detail());
    }

    @Test
    void orderLineCountOfADistrictOff() throws SQLException {
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE \"order\" SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 4 AND o_id = 5",
                "UPDATE \"order\" SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 4 AND o_id = 5"));

        assertEquals(Set.of("3.3.2.4", "3.3.2.6"), failing(checks));
        assertTrue(checks.get("3.3.2.4").detail().startsWith("1 violation: w_id=1 d_id=4 sum(o_ol_cnt)="),
                checks.get("3.3.2.4").detail());
        assertTrue(checks.get("3.3.2.6").detail().startsWith("1 violation: w_id=1 d_id=4 o_id=5 o_ol_cnt="),
                checks.get("3.3.2.6").detail());
    }

    @Test
    void deliveredOrderStillInNewOrder() throws SQLException {
        // A Delivery that forgot to delete the new_order row; everything else about it is right.
        Map<String, Check> checks = runCorrupted(deliver(5, 2500));

        assertEquals(Set.of("3.3.2.5"), failing(checks));
        assertEquals("1 violation: w_id=1 d_id=5 o_id=2500 problem=new_order row without an undelivered order",
                checks.get("3.3.2.5").detail());
    }

    @Test
    void orderLineCountsOfTwoOrdersSwapped() throws SQLException {
        // Offsetting errors keep the district's sum, so only the per-order condition sees them.
        Map<String, Check> checks = runCorrupted(new Corruption()
                .change("UPDATE \"order\" SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 5",
                        "UPDATE \"order\" SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 5")
                .change("UPDATE \"order\" SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 6",
                        "UPDATE \"order\" SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 6"));

        assertEquals(Set.of("3.3.2.6"), failing(checks));
        assertTrue(checks.get("3.3.2.6").detail().startsWith("2 violations, first: w_id=1 d_id=6 o_id=5 o_ol_cnt="),
                checks.get("3.3.2.6").detail());
    }

    @Test
    void deliveredOrderWithAnUndeliveredLine() throws SQLException {
        String line = "ol_w_id = 1 AND ol_d_id = 7 AND ol_o_id = 100";
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE order_line SET ol_delivery_d = NULL WHERE " + line + " AND ol_number = 1",
                "UPDATE order_line SET ol_delivery_d = (SELECT max(ol_delivery_d) FROM order_line WHERE " + line
                        + ") WHERE " + line + " AND ol_number = 1"));

        assertEquals(Set.of("3.3.2.7"), failing(checks));
        String detail = checks.get("3.3.2.7").detail();
        assertTrue(detail.startsWith("1 violation: w_id=1 d_id=7 o_id=100 ol_number=1 o_carrier_id="), detail);
        assertTrue(detail.endsWith(" ol_delivery_d=null"), detail);
    }

    @Test
    void historyRowOfAMissingDistrict() throws SQLException {
        // Booked to the warehouse but to no district or customer, so only the warehouse total disagrees.
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
                        + "VALUES (1, 11, 1, 11, 1, " + ALL_LOAD_TIME + ", 10.00, 'corrupt')",
                "DELETE FROM history WHERE h_w_id = 1 AND h_d_id = 11 AND h_data = 'corrupt'"));

        assertEquals(Set.of("3.3.2.8"), failing(checks));
        assertEquals("1 violation: w_id=1 w_ytd=300000.00 sum(h_amount)=300010.00", checks.get("3.3.2.8").detail());
        assertEquals(Status.PASS, checks.get("3.3.2.11").status(), "an added history row says nothing of deliveries");
    }

    @Test
    void paymentBookedToTheWrongDistrict() throws SQLException {
        String customer = "h_c_w_id = 1 AND h_c_d_id = 1 AND h_c_id = 9";
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE history SET h_d_id = 2 WHERE " + customer,
                "UPDATE history SET h_d_id = 1 WHERE " + customer));

        assertEquals(Set.of("3.3.2.9"), failing(checks));
        assertEquals("2 violations, first: w_id=1 d_id=1 d_ytd=30000.00 sum(h_amount)=29990.00",
                checks.get("3.3.2.9").detail());
    }

    @Test
    void paymentThatMissedTheCustomerBalance() throws SQLException {
        // Warehouse, district and history agree on the extra 5.00; the customer's balance never saw it.
        Map<String, Check> checks = runCorrupted(new Corruption()
                .change("UPDATE history SET h_amount = h_amount + 5 WHERE h_c_w_id = 1 AND h_c_d_id = 10 AND h_c_id = 10",
                        "UPDATE history SET h_amount = h_amount - 5 WHERE h_c_w_id = 1 AND h_c_d_id = 10 AND h_c_id = 10")
                .change("UPDATE district SET d_ytd = d_ytd + 5 WHERE d_w_id = 1 AND d_id = 10",
                        "UPDATE district SET d_ytd = d_ytd - 5 WHERE d_w_id = 1 AND d_id = 10")
                .change("UPDATE warehouse SET w_ytd = w_ytd + 5 WHERE w_id = 1",
                        "UPDATE warehouse SET w_ytd = w_ytd - 5 WHERE w_id = 1"));

        assertEquals(Set.of("3.3.2.10"), failing(checks));
        String detail = checks.get("3.3.2.10").detail();
        assertTrue(detail.startsWith("1 violation: w_id=1 d_id=10 c_id=10 c_balance=-10.00 "), detail);
        assertTrue(detail.endsWith(" sum(h_amount)=15.00"), detail);
    }

    @Test
    void deliveryThatLeftTheLoadCountersAlone() throws SQLException {
        // A Delivery of the oldest order that did not count c_delivery_cnt: only the order counts show it.
        Map<String, Check> checks = runCorrupted(deliver(2, 2101).and(removeNewOrder(2, 2101)));

        assertEquals(Set.of("3.3.2.11"), failing(checks));
        assertEquals("1 violation: w_id=1 d_id=2 count(order)=3000 count(new_order)=899",
                checks.get("3.3.2.11").detail());
    }

    @Test
    void yearToDatePaymentOfACustomerOff() throws SQLException {
        String customer = "c_w_id = 1 AND c_d_id = 1 AND c_id = 12";
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "UPDATE customer SET c_ytd_payment = c_ytd_payment + 5 WHERE " + customer,
                "UPDATE customer SET c_ytd_payment = c_ytd_payment - 5 WHERE " + customer));

        assertEquals(Set.of("3.3.2.12"), failing(checks));
        assertTrue(checks.get("3.3.2.12").detail()
                .startsWith("1 violation: w_id=1 d_id=1 c_id=12 c_balance=-10.00 c_ytd_payment=15.00 "),
                checks.get("3.3.2.12").detail());
    }

    @Test
    void loadOnlyConditionStillHoldsAfterANewOrder() throws SQLException {
        // A NewOrder (without lines, to stay small): the order, its new_order row and the district counter. It adds
        // to both counts of 3.3.2.11, so the condition still holds and is checked.
        Map<String, Check> checks = runCorrupted(new Corruption()
                .change("INSERT INTO \"order\" (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
                        + "o_all_local) VALUES (3001, 1, 1, 1, " + ALL_LOAD_TIME + ", NULL, 0, 1)",
                        "DELETE FROM \"order\" WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 3001")
                .change("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (3001, 1, 1)",
                        "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 3001")
                .change("UPDATE district SET d_next_o_id = 3002 WHERE d_w_id = 1 AND d_id = 1",
                        "UPDATE district SET d_next_o_id = 3001 WHERE d_w_id = 1 AND d_id = 1"));

        assertEquals(Set.of(), failing(checks));
        assertEquals(Status.PASS, checks.get("3.3.2.11").status(), checks.get("3.3.2.11")::toString);
    }

    @Test
    void loadOnlyConditionStillHoldsAfterPayments() throws SQLException {
        // Two complete Payments of 10.00: warehouse, district and customer totals, the customer's payment count
        // and the history row. Payments touch no order, so 3.3.2.11 is checked.
        Map<String, Check> checks = runCorrupted(payment(1, 1, 17).and(payment(2, 9, 2_999)));

        assertEquals(Set.of(), failing(checks));
        assertEquals(Status.PASS, checks.get("3.3.2.11").status(), checks.get("3.3.2.11")::toString);
    }

    @Test
    void loadOnlyConditionIsSkippedAfterACompleteDelivery() throws SQLException {
        Map<String, Check> checks = runCorrupted(deliver(2, 2101).and(removeNewOrder(2, 2101)).and(new Corruption()
                .change("UPDATE customer SET c_delivery_cnt = c_delivery_cnt + 1 WHERE " + customerOf(2, 2101),
                        "UPDATE customer SET c_delivery_cnt = c_delivery_cnt - 1 WHERE " + customerOf(2, 2101))));

        assertEquals(Set.of(), failing(checks));
        assertEquals(Status.SKIP, checks.get("3.3.2.11").status());
        assertEquals("a Delivery has run since the load (1 customer(s) received one); holds only until the first "
                + "Delivery", checks.get("3.3.2.11").detail());
    }

    @Test
    void aFailingQueryFailsItsChecksAndTheOthersStillRun() throws SQLException {
        Map<String, Check> checks = runCorrupted(new Corruption().change(
                "ALTER TABLE history RENAME COLUMN h_amount TO h_amount_renamed",
                "ALTER TABLE history RENAME COLUMN h_amount_renamed TO h_amount"));

        assertEquals(Set.of("3.3.2.8", "3.3.2.9", "3.3.2.10"), failing(checks));
        String detail = checks.get("3.3.2.9").detail();
        assertTrue(detail.startsWith("query failed: ") && detail.contains("h_amount"), detail);
        assertEquals(Status.PASS, checks.get("3.3.2.12").status(), "checks after a failed one still run");
    }

    @Test
    void connectionSettingsAreRestored() throws SQLException {
        try (Connection c = db.connect()) {
            int isolation = c.getTransactionIsolation();
            ConsistencyChecks.run(c, "3.3.2.1");

            assertTrue(c.getAutoCommit());
            assertFalse(c.isReadOnly());
            assertEquals(isolation, c.getTransactionIsolation());
        }
    }

    @Test
    void aDatabaseWithoutTheSchemaIsRefused() throws SQLException {
        TestDatabase empty = server.freshDatabase("consistency_checks_empty");
        try (Connection c = empty.connect()) {
            BadInputException e = assertThrows(BadInputException.class, () -> ConsistencyChecks.run(c, false));

            assertTrue(e.getMessage().startsWith("no TPC-C schema at jdbc:postgresql:"), e.getMessage());
            assertTrue(e.getMessage().contains("/consistency_checks_empty"), e.getMessage());
            assertTrue(e.getMessage().endsWith("; run init first"), e.getMessage());
            assertTrue(c.getAutoCommit(), "settings restored after the refusal too");
        }
    }

    @Test
    void checkCommandPrintsATableAndExitsByTheOutcome() throws SQLException {
        CommandOutput clean = check(db);
        assertEquals(ExitCode.OK, clean.code(), clean::toString);
        assertTrue(clean.out().contains("PASS  3.3.2.1 w_ytd = sum(d_ytd) per warehouse"), clean.out());
        assertTrue(clean.out().contains("SKIP  3.3.2.6 ") && clean.out().contains("(expensive; run check --expensive)"),
                clean.out());
        assertTrue(clean.out().contains("Consistency checks: PASS"), clean.out());

        CommandOutput broken;
        try (Corruption.Applied applied = new Corruption().change(
                "UPDATE warehouse SET w_ytd = w_ytd + 10 WHERE w_id = 1",
                "UPDATE warehouse SET w_ytd = w_ytd - 10 WHERE w_id = 1").applyTo(db)) {
            broken = check(db);
        }
        assertEquals(ExitCode.FAILED, broken.code(), broken::toString);
        assertTrue(broken.out().contains("FAIL  3.3.2.1 ") && broken.out().contains(
                "(1 violation: w_id=1 w_ytd=300010.00 sum(d_ytd)=300000.00)"), broken.out());
        assertTrue(broken.out().contains("Consistency checks: FAIL (2 of 12 failed)"), broken.out());
        assertTrue(broken.err().contains("consistency checks failed: 3.3.2.1 w_ytd = sum(d_ytd) per warehouse; 3.3.2.8"),
                broken.err());

        CommandOutput empty = check(server.freshDatabase("consistency_checks_cli_empty"));
        assertEquals(ExitCode.BAD_INPUT, empty.code(), empty::toString);
        assertTrue(empty.err().contains("no tpcc tables at jdbc:postgresql:") && empty.err().contains("; run init first"), empty.err());
    }

    /** What {@code bench-tpcc check} printed and returned. */
    private record CommandOutput(int code, String out, String err) {
    }

    private static CommandOutput check(TestDatabase target) {
        List<String> args = new ArrayList<>(List.of("check", "--url", target.jdbcUrl(), "--user", target.user()));
        if (target.password() != null) {
            args.add("--password=" + target.password());
        }
        CommandLine cli = GauntletCommandLine.create(new TpccCommand());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = cli.execute(args.toArray(String[]::new));
            return new CommandOutput(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(previous);
        }
    }

    /**
     * What Delivery does to one order, except deleting its new_order row and counting c_delivery_cnt: set
     * the carrier, stamp the lines, and add their amounts to the customer's balance.
     */
    private static Corruption deliver(int district, int order) {
        String o = "o_w_id = 1 AND o_d_id = " + district + " AND o_id = " + order;
        String lines = "ol_w_id = 1 AND ol_d_id = " + district + " AND ol_o_id = " + order;
        String amount = "(SELECT sum(ol_amount) FROM order_line WHERE " + lines + ")";
        return new Corruption()
                .change("UPDATE \"order\" SET o_carrier_id = 7 WHERE " + o,
                        "UPDATE \"order\" SET o_carrier_id = NULL WHERE " + o)
                .change("UPDATE order_line SET ol_delivery_d = " + ALL_LOAD_TIME + " WHERE " + lines,
                        "UPDATE order_line SET ol_delivery_d = NULL WHERE " + lines)
                .change("UPDATE customer SET c_balance = c_balance + " + amount + " WHERE " + customerOf(district, order),
                        "UPDATE customer SET c_balance = c_balance - " + amount + " WHERE "
                                + customerOf(district, order));
    }

    /**
     * What a Payment of 10.00 by warehouse 1, district {@code district}, does for customer {@code customer} of
     * district {@code customerDistrict} (of warehouse 1): every total it moves and the history row it writes.
     */
    private static Corruption payment(int district, int customerDistrict, int customer) {
        String c = "c_w_id = 1 AND c_d_id = " + customerDistrict + " AND c_id = " + customer;
        String d = "d_w_id = 1 AND d_id = " + district;
        String h = "h_c_w_id = 1 AND h_c_d_id = " + customerDistrict + " AND h_c_id = " + customer
                + " AND h_w_id = 1 AND h_d_id = " + district + " AND h_data = 'payment in a test'";
        return new Corruption()
                .change("UPDATE warehouse SET w_ytd = w_ytd + 10 WHERE w_id = 1",
                        "UPDATE warehouse SET w_ytd = w_ytd - 10 WHERE w_id = 1")
                .change("UPDATE district SET d_ytd = d_ytd + 10 WHERE " + d,
                        "UPDATE district SET d_ytd = d_ytd - 10 WHERE " + d)
                .change("UPDATE customer SET c_balance = c_balance - 10, c_ytd_payment = c_ytd_payment + 10, "
                        + "c_payment_cnt = c_payment_cnt + 1 WHERE " + c,
                        "UPDATE customer SET c_balance = c_balance + 10, c_ytd_payment = c_ytd_payment - 10, "
                        + "c_payment_cnt = c_payment_cnt - 1 WHERE " + c)
                .change("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
                        + "VALUES (" + customer + ", " + customerDistrict + ", 1, " + district + ", 1, "
                        + ALL_LOAD_TIME + ", 10.00, 'payment in a test')",
                        "DELETE FROM history WHERE " + h);
    }

    private static String customerOf(int district, int order) {
        return "c_w_id = 1 AND c_d_id = " + district + " AND c_id = (SELECT o_c_id FROM \"order\" WHERE o_w_id = 1 "
                + "AND o_d_id = " + district + " AND o_id = " + order + ")";
    }

    private static Corruption removeNewOrder(int district, int order) {
        return new Corruption().change(
                "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = " + district + " AND no_o_id = " + order,
                "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (" + order + ", " + district + ", 1)");
    }

    private static Map<String, Check> runCorrupted(Corruption corruption) throws SQLException {
        try (Corruption.Applied applied = corruption.applyTo(db)) {
            return runAll(true);
        }
    }

    /** The checks by clause number, in the order they ran. */
    private static Map<String, Check> runAll(boolean expensive) throws SQLException {
        try (Connection c = db.connect()) {
            Map<String, Check> byNumber = new LinkedHashMap<>();
            for (Check k : ConsistencyChecks.run(c, expensive)) {
                byNumber.put(k.name().substring(0, k.name().indexOf(' ')), k);
            }
            return byNumber;
        }
    }

    private static Set<String> failing(Map<String, Check> checks) {
        Set<String> failed = new TreeSet<>();
        checks.forEach((number, k) -> {
            if (k.status() == Status.FAIL) {
                failed.add(number);
            }
        });
        return failed;
    }
}

package dev.gauntlet.tpcc.checks;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.sql.ReadOnlySnapshot;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlCheck;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.tpcc.schema.Schema;
import dev.gauntlet.tpcc.workload.Scale;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The twelve consistency conditions of clause 3.3.2 as cockroach {@code workload check tpcc} runs them: a
 * table of {@link SqlCheck}s named by clause number ({@code 3.3.2.1 w_ytd = sum(d_ytd) per warehouse}),
 * run by {@link SqlChecks} in one snapshot. What is TPC-C's own is here: the conditions, the schema they
 * need, and how the data shows that a Delivery has run since the load, which ends 3.3.2.11.
 *
 * <p>The queries are plain SQL that PostgreSQL and CockroachDB both accept.
 */
public final class ConsistencyChecks {

    /** Orders per district after load minus the undelivered ones: the constant of 3.3.2.11. */
    private static final int DELIVERED_AT_LOAD = Scale.FIRST_UNDELIVERED_ORDER - 1;

    /** Every condition, in clause order; 6, 10 and 12 are expensive, 11 holds only until the first Delivery. */
    public static final List<SqlCheck> ALL = List.of(
            condition("3.3.2.1", "w_ytd = sum(d_ytd) per warehouse").violations("""
                    SELECT coalesce(w.w_id, d.d_w_id) AS w_id, w.w_ytd, d.amount AS "sum(d_ytd)"
                    FROM warehouse AS w
                    FULL JOIN (SELECT d_w_id, sum(d_ytd) AS amount FROM district GROUP BY d_w_id) AS d
                      ON d.d_w_id = w.w_id
                    WHERE w.w_ytd IS DISTINCT FROM d.amount""").rowKey("w_id").build(),
            // The clause exempts districts without outstanding orders from the new_order part.
            condition("3.3.2.2", "d_next_o_id - 1 = max(o_id) = max(no_o_id) per district").violations("""
                    SELECT d.d_w_id AS w_id, d.d_id, d.d_next_o_id, o.max_o_id AS "max(o_id)",
                           n.max_no_o_id AS "max(no_o_id)"
                    FROM district AS d
                    LEFT JOIN (SELECT o_w_id, o_d_id, max(o_id) AS max_o_id FROM "order"
                               GROUP BY o_w_id, o_d_id) AS o
                      ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
                    LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS max_no_o_id FROM new_order
                               GROUP BY no_w_id, no_d_id) AS n
                      ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
                    WHERE d.d_next_o_id - 1 IS DISTINCT FROM o.max_o_id
                       OR (n.max_no_o_id IS NOT NULL AND d.d_next_o_id - 1 <> n.max_no_o_id)""").rowKey("w_id, d_id").build(),
            condition("3.3.2.3", "max(no_o_id) - min(no_o_id) + 1 = count(new_order) per district").violations("""
                    SELECT no_w_id AS w_id, no_d_id AS d_id, min(no_o_id) AS "min(no_o_id)",
                           max(no_o_id) AS "max(no_o_id)", count(*) AS "count(new_order)"
                    FROM new_order
                    GROUP BY no_w_id, no_d_id
                    HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*)""").rowKey("w_id, d_id").build(),
            condition("3.3.2.4", "sum(o_ol_cnt) = count(order_line) per district").violations("""
                    SELECT coalesce(o.w_id, l.w_id) AS w_id, coalesce(o.d_id, l.d_id) AS d_id,
                           o.ol_cnt AS "sum(o_ol_cnt)", l.lines AS "count(order_line)"
                    FROM (SELECT o_w_id AS w_id, o_d_id AS d_id, sum(o_ol_cnt) AS ol_cnt FROM "order"
                          GROUP BY o_w_id, o_d_id) AS o
                    FULL JOIN (SELECT ol_w_id AS w_id, ol_d_id AS d_id, count(*) AS lines FROM order_line
                               GROUP BY ol_w_id, ol_d_id) AS l
                      ON l.w_id = o.w_id AND l.d_id = o.d_id
                    WHERE coalesce(o.ol_cnt, 0) <> coalesce(l.lines, 0)""").rowKey("w_id, d_id").build(),
            // A symmetric difference, as cockroach's two EXCEPT ALL queries, but naming the side that is missing.
            condition("3.3.2.5", "new_order rows exactly match orders with o_carrier_id IS NULL").violations("""
                    SELECT coalesce(n.no_w_id, o.o_w_id) AS w_id, coalesce(n.no_d_id, o.o_d_id) AS d_id,
                           coalesce(n.no_o_id, o.o_id) AS o_id,
                           CASE WHEN o.o_id IS NULL THEN 'new_order row without an undelivered order'
                                ELSE 'undelivered order without a new_order row' END AS problem
                    FROM new_order AS n
                    FULL JOIN (SELECT o_w_id, o_d_id, o_id FROM "order" WHERE o_carrier_id IS NULL) AS o
                      ON o.o_w_id = n.no_w_id AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id
                    WHERE n.no_o_id IS NULL OR o.o_id IS NULL""").rowKey("w_id, d_id, o_id").build(),
            condition("3.3.2.6", "o_ol_cnt = count(order_line) per order").expensive().violations("""
                    SELECT coalesce(o.o_w_id, l.ol_w_id) AS w_id, coalesce(o.o_d_id, l.ol_d_id) AS d_id,
                           coalesce(o.o_id, l.ol_o_id) AS o_id, o.o_ol_cnt,
                           coalesce(l.lines, 0) AS "count(order_line)"
                    FROM "order" AS o
                    FULL JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS lines FROM order_line
                               GROUP BY ol_w_id, ol_d_id, ol_o_id) AS l
                      ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
                    WHERE o.o_ol_cnt IS DISTINCT FROM coalesce(l.lines, 0)""").rowKey("w_id, d_id, o_id").build(),
            // Per order line, so an order with some lines delivered and some not is caught too.
            condition("3.3.2.7", "ol_delivery_d IS NULL exactly when o_carrier_id IS NULL").violations("""
                    SELECT l.ol_w_id AS w_id, l.ol_d_id AS d_id, l.ol_o_id AS o_id, l.ol_number,
                           o.o_carrier_id, l.ol_delivery_d
                    FROM order_line AS l
                    JOIN "order" AS o ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id
                    WHERE (o.o_carrier_id IS NULL) <> (l.ol_delivery_d IS NULL)""").rowKey("w_id, d_id, o_id, ol_number").build(),
            condition("3.3.2.8", "w_ytd = sum(h_amount) per warehouse").violations("""
                    SELECT w.w_id, w.w_ytd, coalesce(h.amount, 0) AS "sum(h_amount)"
                    FROM warehouse AS w
                    LEFT JOIN (SELECT h_w_id, sum(h_amount) AS amount FROM history GROUP BY h_w_id) AS h
                      ON h.h_w_id = w.w_id
                    WHERE w.w_ytd IS DISTINCT FROM coalesce(h.amount, 0)""").rowKey("w_id").build(),
            condition("3.3.2.9", "d_ytd = sum(h_amount) per district").violations("""
                    SELECT d.d_w_id AS w_id, d.d_id, d.d_ytd, coalesce(h.amount, 0) AS "sum(h_amount)"
                    FROM district AS d
                    LEFT JOIN (SELECT h_w_id, h_d_id, sum(h_amount) AS amount FROM history
                               GROUP BY h_w_id, h_d_id) AS h
                      ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id
                    WHERE d.d_ytd IS DISTINCT FROM coalesce(h.amount, 0)""").rowKey("w_id, d_id").build(),
            condition("3.3.2.10", "c_balance = sum(delivered ol_amount) - sum(h_amount) per customer")
                    .expensive().violations("""
                    SELECT c.c_w_id AS w_id, c.c_d_id AS d_id, c.c_id, c.c_balance,
                           coalesce(ol.amount, 0) AS "sum(delivered ol_amount)",
                           coalesce(h.amount, 0) AS "sum(h_amount)"
                    FROM customer AS c
                    LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, sum(l.ol_amount) AS amount
                               FROM "order" AS o
                               JOIN order_line AS l
                                 ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
                               WHERE l.ol_delivery_d IS NOT NULL
                               GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) AS ol
                      ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
                    LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS amount FROM history
                               GROUP BY h_c_w_id, h_c_d_id, h_c_id) AS h
                      ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id AND h.h_c_id = c.c_id
                    WHERE c.c_balance IS DISTINCT FROM coalesce(ol.amount, 0) - coalesce(h.amount, 0)""").rowKey("w_id, d_id, c_id").build(),
            // Delivery deletes new_order rows but keeps the orders, so this fails after the first Delivery.
            condition("3.3.2.11", "count(order) - count(new_order) = " + DELIVERED_AT_LOAD
                    + " per district").validOnlyOnLoadedData().violations("""
                    SELECT d.d_w_id AS w_id, d.d_id, coalesce(o.orders, 0) AS "count(order)",
                           coalesce(n.new_orders, 0) AS "count(new_order)"
                    FROM district AS d
                    LEFT JOIN (SELECT o_w_id, o_d_id, count(*) AS orders FROM "order"
                               GROUP BY o_w_id, o_d_id) AS o
                      ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
                    LEFT JOIN (SELECT no_w_id, no_d_id, count(*) AS new_orders FROM new_order
                               GROUP BY no_w_id, no_d_id) AS n
                      ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
                    WHERE coalesce(o.orders, 0) - coalesce(n.new_orders, 0) <> %d""".formatted(DELIVERED_AT_LOAD)).rowKey("w_id, d_id").build(),
            condition("3.3.2.12", "c_balance + c_ytd_payment = sum(delivered ol_amount) per customer")
                    .expensive().violations("""
                    SELECT c.c_w_id AS w_id, c.c_d_id AS d_id, c.c_id, c.c_balance, c.c_ytd_payment,
                           coalesce(ol.amount, 0) AS "sum(delivered ol_amount)"
                    FROM customer AS c
                    LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, sum(l.ol_amount) AS amount
                               FROM "order" AS o
                               JOIN order_line AS l
                                 ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id
                               WHERE l.ol_delivery_d IS NOT NULL
                               GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) AS ol
                      ON ol.o_w_id = c.c_w_id AND ol.o_d_id = c.c_d_id AND ol.o_c_id = c.c_id
                    WHERE c.c_balance + c.c_ytd_payment IS DISTINCT FROM coalesce(ol.amount, 0)""").rowKey("w_id, d_id, c_id").build());

    /**
     * Customers that received a Delivery since the load (c_delivery_cnt is 0 at load and every Delivery counts
     * it). Only a Delivery breaks 3.3.2.11: New-Order adds an order and its new_order row, so their difference
     * stays, and Payment, Order-Status and Stock-Level touch neither table.
     */
    private static final String DELIVERED_SINCE_LOAD = "SELECT count(*) FROM customer WHERE c_delivery_cnt <> 0";

    /** What a skipped expensive condition tells the user to do; {@code run --expensive-checks} works too. */
    private static final String HOW_TO_RUN_EXPENSIVE = "run check --expensive";

    private ConsistencyChecks() {
    }

    /**
     * Runs every condition in one snapshot. Expensive ones are skipped unless {@code expensive}; the
     * load-only one is skipped when the data shows that a Delivery has run since the load.
     *
     * <p>The connection should be dedicated to this call and not inside a transaction: it is switched to a
     * read-only REPEATABLE READ transaction, which is rolled back at the end, and its auto-commit, isolation
     * and read-only settings are then restored.
     *
     * @throws BadInputException if the database has no TPC-C schema
     * @throws SQLException      if the snapshot cannot be set up, or the connection is lost
     */
    public static List<Check> run(Connection c, boolean expensive) throws SQLException {
        return run(c, ALL, expensive);
    }

    /**
     * Runs one condition, by number ({@code 3.3.2.6}), in a snapshot of its own and whether or not it is
     * expensive; the load-only one is still skipped once a Delivery has run. Same contract as
     * {@link #run(Connection, boolean)}.
     *
     * @throws IllegalArgumentException if there is no such condition
     */
    public static Check run(Connection c, String number) throws SQLException {
        return run(c, List.of(byNumber(number)), true).get(0);
    }

    /** The condition with this clause number. */
    public static SqlCheck byNumber(String number) {
        return ALL.stream().filter(k -> k.name().startsWith(number + " ")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no consistency condition " + number
                        + "; they are 3.3.2.1 to 3.3.2." + ALL.size()));
    }

    /** A condition of the table, named by its clause number and the relationship it states. */
    /** A clause's condition: its number and what it says; the builder takes its violations query and row key. */
    private static SqlCheck.Builder condition(String number, String description) {
        return SqlCheck.named(number + " " + description);
    }

    private static List<Check> run(Connection c, List<SqlCheck> conditions, boolean expensive) throws SQLException {
        try (ReadOnlySnapshot snapshot = ReadOnlySnapshot.begin(c)) {
            // The schema probe is the snapshot's first statement, so it sees what the checks see.
            if (!Schema.exists(c)) {
                throw new BadInputException("no TPC-C schema at " + Redaction.url(c.getMetaData().getURL())
                        + "; run init first");
            }
            return SqlChecks.run(snapshot, conditions,
                    new CheckScope(expensive, HOW_TO_RUN_EXPENSIVE, ConsistencyChecks::deliveriesSinceLoad));
        }
    }

    /** Empty when no Delivery has run since the load, else why 3.3.2.11 no longer applies. */
    private static Optional<String> deliveriesSinceLoad(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(DELIVERED_SINCE_LOAD)) {
            rs.next();
            long customers = rs.getLong(1);
            return customers == 0 ? Optional.empty() : Optional.of("a Delivery has run since the load ("
                    + customers + " customer(s) received one); holds only until the first Delivery");
        }
    }
}

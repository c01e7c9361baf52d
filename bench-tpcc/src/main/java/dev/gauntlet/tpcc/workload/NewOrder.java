package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.metrics.Counters;
import dev.gauntlet.core.run.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The New-Order transaction (clause 2.4): 5-15 order lines, 1% of them from a remote warehouse, and 1% of
 * orders ending in an unused item id that rolls the whole transaction back. One statement in auto-commit, one round
 * trip (round trips cost the driver and the server more CPU than anything else they do): the district's next order
 * id, the order and its new_order row, the customer and warehouse, all stock rows joined with their items in one
 * UPDATE (in key order, so concurrent orders do not deadlock) and all order lines, as data-modifying CTEs. An order
 * that finds a stock row missing, and one meant to roll back, fails in the statement itself, so the server rolls it
 * back as it answers and no COMMIT or ROLLBACK of ours follows.
 *
 * <p>Any other item or stock row found missing is damaged data and stops the run with a
 * {@link DamagedDataException} naming it: passed off as a rollback it would count as committed work that never
 * happened (the runner counts every operation that returns normally).
 */
public final class NewOrder implements TransactionMode.Procedural {

    public static final String NAME = "newOrder";

    /** Clause 2.4.1.4: the share of orders that end in the unused item id and roll back. */
    public static final int ROLLBACK_PERCENT = 1;
    /** Clause 2.4.1.5: the share of order lines supplied by a remote warehouse (when there is one). */
    public static final int REMOTE_LINE_PERCENT = 1;

    record Line(int item, int supplyWarehouse, int quantity) {
    }

    /**
     * The whole order in one statement, one round trip: the district's next order id, the order and its new_order
     * row, the customer and warehouse read, every line's stock updated (joined with its item, in key order so
     * concurrent orders do not deadlock) and every line inserted from what that update returned. It answers the
     * order id and whether the customer was found. When it updated fewer stock rows than there are lines (an unused
     * item id matches no stock row), or the order is meant to roll back, it fails instead: the text
     * {@code missing stock: item@warehouse,...} cast to an integer raises {@code invalid_text_representation}
     * naming the lines without stock, and the failed statement leaves nothing behind (a function's RAISE without a
     * function). Each line's item, supplying warehouse and quantity are bound once, as three arrays, for the update;
     * item and warehouse again for the list, which is only computed when it fails.
     */
    private static final String[] ORDER = new String[Scale.DISTRICTS_PER_WAREHOUSE + 1];
    /** Which of some item ids exist: only asked once the stock update found rows missing, to name the damage. */
    private static final String EXISTING_ITEMS = "SELECT i_id FROM item WHERE i_id = ANY (?)";
    private static final String CALL = "SELECT tpcc_new_order(?, ?, ?, ?, ?, ?, ?)";
    /** The SQLSTATE {@code tpcc_new_order} raises when stock rows are missing (the message lists item@warehouse). */
    private static final String MISSING_STOCK = "GT001";
    private static final String MISSING_STOCK_PREFIX = "missing stock: ";
    private static final Pattern MISSING_LINE = Pattern.compile("(\\d+)@(\\d+)");

    static {
        for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
            ORDER[d] = "WITH d AS (UPDATE district SET d_next_o_id = d_next_o_id + 1 "
                    + "WHERE d_w_id = ? AND d_id = ? RETURNING d_tax, d_next_o_id - 1 AS o_id), "
                    + "o AS (INSERT INTO \"order\" (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
                    + "o_all_local) SELECT o_id, ?, ?, ?, ?, NULL, ?, ? FROM d RETURNING o_id), "
                    + "n AS (INSERT INTO new_order (no_o_id, no_d_id, no_w_id) SELECT o_id, ?, ? FROM o RETURNING no_o_id), "
                    + "c AS (SELECT c_discount, c_last, c_credit, w_tax FROM customer JOIN warehouse ON w_id = c_w_id "
                    + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?), "
                    + "s AS (UPDATE stock SET "
                    + "s_quantity = CASE WHEN s_quantity >= v.q + 10 THEN s_quantity - v.q ELSE s_quantity - v.q + 91 END, "
                    + "s_ytd = s_ytd + v.q, s_order_cnt = s_order_cnt + 1, "
                    + "s_remote_cnt = s_remote_cnt + CASE WHEN v.w = ? THEN 0 ELSE 1 END "
                    + "FROM unnest(?::int[], ?::int[], ?::int[]) WITH ORDINALITY AS v(i, w, q, n) "
                    + "JOIN item ON i_id = v.i WHERE s_i_id = v.i AND s_w_id = v.w "
                    + String.format("RETURNING s_i_id, s_w_id, s_dist_%02d AS dist, i_price, v.q, v.n), ", d)
                    + "l AS (INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
                    + "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
                    + "SELECT n.no_o_id, ?, ?, s.n, s.s_i_id, s.s_w_id, NULL, s.q, s.i_price * s.q, s.dist "
                    + "FROM s CROSS JOIN n) "
                    + "SELECT (SELECT no_o_id FROM n), (SELECT count(*) FROM c), "
                    + StatementFailure.raise("(SELECT count(*) FROM s) < ? OR ?", MISSING_STOCK_PREFIX, "coalesce(("
                    + "SELECT string_agg(v.i || '@' || v.w, ',') FROM unnest(?::int[], ?::int[]) AS v(i, w) "
                    + "WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.s_i_id = v.i AND s.s_w_id = v.w)), '')");
        }
    }

    private final int warehouse;
    private final int district;
    private final int customer;
    private final Line[] lines;
    private final boolean rollback;
    /** Where the keys of committed orders go; null when nobody keeps them. */
    private final CommittedOrders orders;
    /** The order id the last attempt placed, or 0 when it placed none (rolled back, failed). */
    private int placed;
    /** The entry time the last attempt stored with its order ({@link CommittedOrders#entryTime()}). */
    private java.time.LocalDateTime entered;

    NewOrder(int warehouse, int district, int customer, Line[] lines, boolean rollback) {
        this(warehouse, district, customer, lines, rollback, null);
    }

    NewOrder(int warehouse, int district, int customer, Line[] lines, boolean rollback, CommittedOrders orders) {
        this.warehouse = warehouse;
        this.district = district;
        this.customer = customer;
        this.lines = lines;
        this.rollback = rollback;
        this.orders = orders;
    }

    /** Input per clause 2.4.1, lines sorted by (supply warehouse, item) so stock rows are locked in key order. */
    static NewOrder random(Home home, TpccRandom r) {
        int count = r.uniform(5, 15);
        boolean rollback = r.uniform(1, 100) <= ROLLBACK_PERCENT;
        Line[] lines = new Line[count];
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            int supply = home.activeWarehouses() > 1 && r.uniform(1, 100) <= REMOTE_LINE_PERCENT
                    ? home.remoteWarehouse(r) : home.warehouse();
            int item;
            do {
                item = rollback && i == count - 1 ? Scale.UNUSED_ITEM_ID : r.itemId(home.constants());
            } while (!seen.add((long) supply << 32 | item));
            lines[i] = new Line(item, supply, r.uniform(1, 10));
        }
        Arrays.sort(lines, Comparator.comparingInt(Line::supplyWarehouse).thenComparingInt(Line::item));
        // Clause 2.4.1.2: the district is drawn anew each time; only Stock-Level uses the terminal's own.
        int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
        return new NewOrder(home.warehouse(), district, r.customerId(home.constants()), lines, rollback,
                home.orders());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Commit commit() {
        return Commit.IMPLICIT; // one statement, committed by the server as it answers (or failed as a whole)
    }

    /** The transaction's statement, in auto-commit or on a connection the caller commits. */
    void execute(Connection c) throws SQLException {
        placed = 0;
        entered = CommittedOrders.entryTime();
        boolean allLocal = true;
        for (Line l : lines) {
            allLocal &= l.supplyWarehouse() == warehouse;
        }
        int[] items = ints(Line::item);
        int[] supply = ints(Line::supplyWarehouse);
        int orderId;
        try (PreparedStatement s = c.prepareStatement(ORDER[district])) {
            int i = 0;
            s.setInt(++i, warehouse);
            s.setInt(++i, district);
            s.setInt(++i, district);
            s.setInt(++i, warehouse);
            s.setInt(++i, customer);
            s.setObject(++i, entered);
            s.setInt(++i, lines.length);
            s.setInt(++i, allLocal ? 1 : 0);
            s.setInt(++i, district);
            s.setInt(++i, warehouse);
            s.setInt(++i, warehouse);
            s.setInt(++i, district);
            s.setInt(++i, customer);
            s.setInt(++i, warehouse);
            s.setObject(++i, items);
            s.setObject(++i, supply);
            s.setObject(++i, ints(Line::quantity));
            s.setInt(++i, district);
            s.setInt(++i, warehouse);
            s.setInt(++i, lines.length);
            s.setBoolean(++i, rollback);
            s.setObject(++i, items);
            s.setObject(++i, supply);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                orderId = rs.getInt(1);
                if (rs.wasNull() || rs.getInt(2) == 0) {
                    throw new SQLException("district or customer " + warehouse + "/" + district + "/" + customer
                            + " not found");
                }
                // The taxes, discount and credit are read as clause 2.4.2.2 says; no terminal shows the total.
            }
        } catch (SQLException e) {
            if (StatementFailure.detail(e, MISSING_STOCK_PREFIX).isEmpty()) {
                throw e;
            }
            failedForMissingStock(c, e);
            return;
        }
        placed = orderId;
    }

    /**
     * The transaction as one call of {@code tpcc_new_order}, on a connection in a transaction or in auto-commit.
     * Missing stock rows come back as an error listing them (the whole transaction is then rolled back): the unused
     * item id alone is the expected rollback, anything else damaged data, told apart exactly as the statements do.
     */
    @Override
    public void call(Connection c) throws SQLException {
        placed = 0;
        entered = CommittedOrders.entryTime();
        int orderId;
        try (PreparedStatement s = c.prepareStatement(CALL)) {
            s.setInt(1, warehouse);
            s.setInt(2, district);
            s.setInt(3, customer);
            s.setObject(4, ints(Line::item));
            s.setObject(5, ints(Line::supplyWarehouse));
            s.setObject(6, ints(Line::quantity));
            s.setObject(7, entered);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                orderId = rs.getInt(1);
            }
        } catch (SQLException e) {
            if (!MISSING_STOCK.equals(e.getSQLState())) {
                throw e;
            }
            failedForMissingStock(c, e);
            return;
        }
        if (rollback) {
            rollBack(c); // too late in auto-commit: the unused item id exists, and the run stops on damaged data
            throw damaged(c, List.of());
        }
        placed = orderId;
    }

    /** The order the last attempt placed, as the ledger keeps it; null when it placed none. */
    CommittedOrders.Order placedOrder() {
        return placed == 0 ? null
                : new CommittedOrders.Order(warehouse, district, placed, customer, lines.length, entered);
    }

    /** Rolls back an open transaction; in auto-commit the failed call was rolled back by the server already. */
    private static void rollBack(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.rollback();
        }
    }

    /**
     * After the order failed on missing stock (and so left nothing behind): the unused item id alone is the expected
     * rollback (clause 2.4.2.3), returned from normally; anything else is damaged data, thrown.
     */
    private void failedForMissingStock(Connection c, SQLException e) throws SQLException {
        rollBack(c);
        List<Line> missing = missingLines(e);
        if (rollback && missing.size() == 1 && missing.get(0).item() == Scale.UNUSED_ITEM_ID) {
            return;
        }
        throw damaged(c, missing);
    }

    /** The lines found without stock, from the failure's {@code missing stock: item@warehouse,...}. */
    private List<Line> missingLines(SQLException e) {
        List<Line> missing = new ArrayList<>();
        Matcher m = MISSING_LINE.matcher(StatementFailure.detail(e, MISSING_STOCK_PREFIX).orElse(""));
        while (m.find()) {
            int item = Integer.parseInt(m.group(1));
            int supply = Integer.parseInt(m.group(2));
            for (Line l : lines) {
                if (l.item() == item && l.supplyWarehouse() == supply) {
                    missing.add(l);
                }
            }
        }
        return missing;
    }

    /**
     * Why the lines in {@code missing} found no stock row, naming each: its item is gone, or only its stock
     * row at the supplying warehouse; or, for an order meant to roll back, that the unused item id exists.
     */
    private DamagedDataException damaged(Connection c, List<Line> missing) throws SQLException {
        Set<Integer> items = new HashSet<>();
        try (PreparedStatement s = c.prepareStatement(EXISTING_ITEMS)) {
            s.setArray(1, c.createArrayOf("int4", missing.stream().map(Line::item).toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    items.add(rs.getInt(1));
                }
            }
        }
        List<String> what = new ArrayList<>();
        for (Line l : missing) {
            if (l.item() != Scale.UNUSED_ITEM_ID) {
                what.add(items.contains(l.item()) ? "no stock row for item " + l.item() + " at warehouse "
                        + l.supplyWarehouse() : "no item " + l.item());
            }
        }
        if (what.isEmpty()) {
            what.add("item " + Scale.UNUSED_ITEM_ID + ", the id meant to be unused, in stock");
        }
        return new DamagedDataException("New-Order of warehouse " + warehouse + " district " + district + " found "
                + String.join(", ", what) + " (only item " + Scale.UNUSED_ITEM_ID + " is meant to be missing)");
    }

    /** One field of every line, bound as an {@code int4[]} (pgjdbc sends a primitive array in binary, unboxed). */
    private int[] ints(java.util.function.ToIntFunction<Line> field) {
        int[] values = new int[lines.length];
        for (int i = 0; i < lines.length; i++) {
            values[i] = field.applyAsInt(lines[i]);
        }
        return values;
    }

    /** What this transaction did, counted once it commits. */
    @Override
    public void committed(Counters counters) {
        if (rollback) {
            counters.add("rolledBack", 1);
            return;
        }
        counters.add("orderLines", lines.length);
        counters.add("remoteOrderLines", Arrays.stream(lines).filter(l -> l.supplyWarehouse() != warehouse).count());
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws SQLException {
        recorded(attempt); // before the statement: a session lost while it runs leaves the order maybe placed
        execute(c);
        committed(attempt::count); // held by the attempt until it commits
    }

    /**
     * The placed order (its key, customer, line count and entry time) goes to the ledger once its commit is heard;
     * an ambiguous one is only counted. Said before the transaction runs: in auto-commit its statement is its commit,
     * so an answer lost on the way leaves the order in doubt with nothing said after it.
     */
    @Override
    public void recorded(Attempt attempt) {
        if (orders != null) {
            attempt.afterCommit(() -> {
                CommittedOrders.Order order = placedOrder();
                if (order != null) {
                    orders.committed(order);
                }
            });
            attempt.ifCommitUnknown(orders::uncertain);
        }
    }
}

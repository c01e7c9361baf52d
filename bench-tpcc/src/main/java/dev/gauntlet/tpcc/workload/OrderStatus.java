package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.metrics.Counters;
import dev.gauntlet.core.run.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Order-Status transaction (clause 2.6), read-only: the customer (60% by last name), their most recent
 * order and its lines, in one statement.
 *
 * <p>One statement because the customer and the order must come from one snapshot, and at READ COMMITTED
 * (the default on PostgreSQL) each statement takes its own: read in two, a New-Order or Delivery committed in
 * between would pair the customer's balance with an order from later. One statement is one snapshot at every
 * level on both databases. Running just this transaction at REPEATABLE READ would do too, but it would mean
 * switching and restoring the session's level around every Order-Status (pooled sessions included), and
 * CockroachDB offers that level only behind a cluster setting.
 */
final class OrderStatus implements TransactionMode.Procedural {

    static final String NAME = "orderStatus";

    /** What the terminal shows (clause 2.6.3.4), in brief: the customer, their last order and its line count. */
    record Shown(int customerId, int orderId, int lines) {
    }

    private static final String CUSTOMER_COLUMNS = "c_id, c_balance, c_first, c_middle, c_last";
    private static final String BY_ID = status(CustomerChoice.rowQuery(false, CUSTOMER_COLUMNS));
    private static final String BY_LAST_NAME = status(CustomerChoice.rowQuery(true, CUSTOMER_COLUMNS));

    private final CustomerChoice customer;
    private Shown shown;

    OrderStatus(CustomerChoice customer) {
        this.customer = customer;
    }

    static OrderStatus random(Home home, TpccRandom r) {
        int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
        return new OrderStatus(CustomerChoice.random(home.warehouse(), district, home.constants(), r));
    }

    /** The customer, their last order and its lines: one row per line (one row if they have no order). */
    private static String status(String customerRow) {
        return "WITH c AS (" + customerRow + "), "
                + "o AS (SELECT o_id, o_entry_d, o_carrier_id FROM \"order\", c "
                + "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = c.c_id ORDER BY o_id DESC LIMIT 1) "
                + "SELECT c.c_id, c.c_balance, c.c_first, c.c_middle, c.c_last, o.o_id, o.o_entry_d, o.o_carrier_id, "
                + "ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
                + "FROM c LEFT JOIN o ON true "
                + "LEFT JOIN order_line ON ol_w_id = ? AND ol_d_id = ? AND ol_o_id = o.o_id";
    }

    /** One statement that only reads: nothing to commit, no COMMIT round trip. */
    @Override
    public Commit commit() {
        return Commit.NONE;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The transaction's statements, on a connection the caller commits or rolls back. */
    void execute(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(customer.byLastName() ? BY_LAST_NAME : BY_ID)) {
            int i = customer.bind(s, 1);
            s.setInt(i++, customer.warehouse());
            s.setInt(i++, customer.district());
            s.setInt(i++, customer.warehouse());
            s.setInt(i, customer.district());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("customer " + customer + " not found");
                }
                int customerId = rs.getInt(1);
                int orderId = rs.getInt(6);
                int lines = 0;
                do {
                    rs.getInt(9);
                    lines += rs.wasNull() ? 0 : 1;
                } while (rs.next());
                shown = new Shown(customerId, orderId, lines);
            }
        }
    }

    /** The transaction as one call of {@code tpcc_order_status} (STABLE: one snapshot, as the statement has). */
    @Override
    public void call(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM tpcc_order_status(?, ?, ?, ?)")) {
            s.setInt(1, customer.warehouse());
            s.setInt(2, customer.district());
            s.setInt(3, customer.id());
            s.setString(4, customer.lastName());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                shown = new Shown(rs.getInt(1), rs.getInt(2), rs.getInt(3));
            }
        }
    }

    /** What the last execution showed, or null before one completed. */
    Shown shown() {
        return shown;
    }

    /** What this transaction did, counted once it commits. */
    @Override
    public void committed(Counters counters) {
        if (customer.byLastName()) {
            counters.add("byLastName", 1);
        }
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws SQLException {
        execute(c);
        committed(attempt::count); // held by the attempt until it commits
    }
}

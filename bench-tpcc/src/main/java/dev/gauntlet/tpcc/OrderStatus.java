package dev.gauntlet.tpcc;

import dev.gauntlet.core.metrics.Counters;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Order-Status transaction (clause 2.6), read-only: the customer (60% by last name), then their most
 * recent order with its lines in one query.
 */
final class OrderStatus implements Operation<Connection> {

    static final String NAME = "orderStatus";

    private static final String CUSTOMER = "SELECT c_balance, c_first, c_middle, c_last FROM customer "
            + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    private static final String LAST_ORDER = "SELECT o.o_id, o.o_entry_d, o.o_carrier_id, ol_i_id, ol_supply_w_id, "
            + "ol_quantity, ol_amount, ol_delivery_d FROM (SELECT o_id, o_entry_d, o_carrier_id FROM \"order\" "
            + "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1) AS o "
            + "LEFT JOIN order_line ON ol_w_id = ? AND ol_d_id = ? AND ol_o_id = o.o_id";

    private final CustomerChoice customer;

    OrderStatus(CustomerChoice customer) {
        this.customer = customer;
    }

    static OrderStatus random(Home home, TpccRandom r) {
        int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
        return new OrderStatus(CustomerChoice.random(home.warehouse(), district, home.constants(), r));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c) throws SQLException {
        int id = customer.resolve(c);
        try (PreparedStatement s = c.prepareStatement(CUSTOMER)) {
            s.setInt(1, customer.warehouse());
            s.setInt(2, customer.district());
            s.setInt(3, id);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("customer " + customer + " not found");
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement(LAST_ORDER)) {
            s.setInt(1, customer.warehouse());
            s.setInt(2, customer.district());
            s.setInt(3, id);
            s.setInt(4, customer.warehouse());
            s.setInt(5, customer.district());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rs.getInt(4);
                }
            }
        }
    }

    @Override
    public void committed(Counters counters) {
        if (customer.byLastName()) {
            counters.add("byLastName", 1);
        }
    }
}

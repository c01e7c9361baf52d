package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.metrics.Counters;
import java.math.BigDecimal;
import dev.gauntlet.core.run.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Payment transaction (clause 2.5): 15% of customers pay at a remote warehouse, 60% are found by last
 * name. One statement finds the customer (by id, or by name as clause 2.5.2.2 says), updates warehouse, district
 * and customer and writes the history row.
 */
public final class Payment implements TransactionMode.Procedural {

    static final String NAME = "payment";

    /** Clause 2.5.1.2: the share of payments by a customer of a remote warehouse (when there is one). */
    public static final int REMOTE_PERCENT = 15;

    /**
     * Warehouse, district and customer updated and the history row written, the customer looked up by name first
     * when chosen so: one statement, one trip. The customer's id is the first CTE ({@code who}).
     */
    private static final String PAY_BY_ID = pay("SELECT ?::int AS c_id");
    private static final String PAY_BY_NAME = pay(CustomerChoice.rowQuery(true, "c_id"));

    private static String pay(String customer) {
        return "WITH who AS (" + customer + "), "
                + "w AS (UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ? "
                + "RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip), "
                + "d AS (UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ? "
                + "RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip), "
                + "c AS (UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
                + "c_payment_cnt = c_payment_cnt + 1, "
                + "c_data = CASE WHEN c_credit = 'BC' THEN substr(who.c_id || ? || c_data, 1, 500) ELSE c_data END "
                + "FROM who WHERE c_w_id = ? AND c_d_id = ? AND customer.c_id = who.c_id RETURNING customer.c_id, c_first, "
                + "c_middle, "
                + "c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, "
                + "c_discount, c_balance), "
                + "h AS (INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
                + "SELECT c.c_id, ?, ?, ?, ?, now(), ?, substr(w_name || '    ' || d_name, 1, 24) FROM w, d, c "
                + "RETURNING h_c_id) "
                + "SELECT c_credit, c_balance FROM c, h";
    }

    private final int warehouse;
    private final int district;
    private final CustomerChoice customer;
    private final BigDecimal amount;

    Payment(int warehouse, int district, CustomerChoice customer, BigDecimal amount) {
        this.warehouse = warehouse;
        this.district = district;
        this.customer = customer;
        this.amount = amount;
    }

    /** Input per clause 2.5.1. */
    static Payment random(Home home, TpccRandom r) {
        boolean remote = home.activeWarehouses() > 1 && r.uniform(1, 100) <= REMOTE_PERCENT;
        int customerWarehouse = remote ? home.remoteWarehouse(r) : home.warehouse();
        int customerDistrict = remote ? r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE) : home.district();
        int district = r.uniform(1, Scale.DISTRICTS_PER_WAREHOUSE);
        if (!remote) {
            customerDistrict = district;
        }
        return new Payment(home.warehouse(), district,
                CustomerChoice.random(customerWarehouse, customerDistrict, home.constants(), r),
                BigDecimal.valueOf(r.cents(100, 5000_00), 2));
    }

    /** One statement that writes: the server commits it as it answers, with no COMMIT round trip. */
    @Override
    public Commit commit() {
        return Commit.IMPLICIT;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The transaction's statement, on a connection the caller commits or rolls back. */
    void execute(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(customer.byLastName() ? PAY_BY_NAME : PAY_BY_ID)) {
            int i;
            if (customer.byLastName()) {
                i = customer.bind(s, 1);
            } else {
                s.setInt(1, customer.id());
                i = 2;
            }
            s.setBigDecimal(i++, amount);
            s.setInt(i++, warehouse);
            s.setBigDecimal(i++, amount);
            s.setInt(i++, warehouse);
            s.setInt(i++, district);
            s.setBigDecimal(i++, amount);
            s.setBigDecimal(i++, amount);
            // The customer's id leads the history note; the database puts it in front of the rest.
            s.setString(i++, " " + customer.district() + " " + customer.warehouse() + " " + district + " "
                    + warehouse + " " + amount + " | ");
            s.setInt(i++, customer.warehouse());
            s.setInt(i++, customer.district());
            s.setInt(i++, customer.district());
            s.setInt(i++, customer.warehouse());
            s.setInt(i++, district);
            s.setInt(i++, warehouse);
            s.setBigDecimal(i, amount);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("customer " + customer + " or district " + warehouse + "/" + district
                            + " not found");
                }
            }
        }
    }

    /** The transaction as one call of {@code tpcc_payment} (which looks a customer up by name itself). */
    @Override
    public void call(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT tpcc_payment(?, ?, ?, ?, ?, ?, ?)")) {
            s.setInt(1, warehouse);
            s.setInt(2, district);
            s.setInt(3, customer.warehouse());
            s.setInt(4, customer.district());
            s.setInt(5, customer.id());
            s.setString(6, customer.lastName());
            s.setBigDecimal(7, amount);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
            }
        }
    }

    /** What this transaction did, counted once it commits. */
    @Override
    public void committed(Counters counters) {
        if (customer.byLastName()) {
            counters.add("byLastName", 1);
        }
        if (customer.warehouse() != warehouse) {
            counters.add("remote", 1);
        }
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws SQLException {
        execute(c);
        committed(attempt::count); // held by the attempt until it commits
    }
}

package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.metrics.Counters;
import java.math.BigDecimal;
import dev.gauntlet.core.run.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Delivery transaction (clause 2.7) over all ten districts of a warehouse (BenchBase's loops over the
 * wrong range, its issue #360): the oldest new order of every district is delivered in four set-based
 * statements. A district with no undelivered order, or whose oldest order a concurrent Delivery took, is
 * skipped and counted, and so is the transaction that skipped it (the audit allows at most 1% of Delivery
 * transactions to skip any district).
 */
public final class Delivery implements TransactionMode.Procedural {

    static final String NAME = "delivery";

    /** The counter of Delivery transactions that skipped at least one district: what clause 9.2.2.5 limits. */
    public static final String WITH_SKIPPED_DISTRICTS = "withSkippedDistricts";

    private static final String TAKE_OLDEST = "DELETE FROM new_order WHERE no_w_id = ? AND (no_d_id, no_o_id) IN "
            + "(SELECT no_d_id, min(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ANY (?) GROUP BY no_d_id) "
            + "RETURNING no_d_id, no_o_id";
    private static final String UNDELIVERED = "SELECT 1 FROM new_order WHERE no_w_id = ? AND no_d_id = ANY (?) LIMIT 1";
    private static final String SET_CARRIER = "UPDATE \"order\" SET o_carrier_id = ? WHERE o_w_id = ? "
            + "AND (o_d_id, o_id) IN (SELECT * FROM unnest(?::int[], ?::int[])) RETURNING o_d_id, o_c_id";
    private static final String DELIVER_LINES = "UPDATE order_line SET ol_delivery_d = now() WHERE ol_w_id = ? "
            + "AND (ol_d_id, ol_o_id) IN (SELECT * FROM unnest(?::int[], ?::int[])) RETURNING ol_d_id, ol_amount";
    private static final String CREDIT_CUSTOMERS = "UPDATE customer SET c_balance = c_balance + v.amount, "
            + "c_delivery_cnt = c_delivery_cnt + 1 FROM unnest(?::int[], ?::int[], ?::decimal[]) AS v(d, c, amount) "
            + "WHERE c_w_id = ? AND c_d_id = v.d AND c_id = v.c";

    private final int warehouse;
    private final int carrier;
    private int delivered;

    Delivery(int warehouse, int carrier) {
        this.warehouse = warehouse;
        this.carrier = carrier;
    }

    static Delivery random(Home home, TpccRandom r) {
        return new Delivery(home.warehouse(), r.uniform(1, 10));
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The transaction's statements, on a connection the caller commits or rolls back. */
    void execute(Connection c) throws SQLException {
        delivered = 0;
        List<Integer> districts = new ArrayList<>();
        List<Integer> orders = new ArrayList<>();
        List<Integer> wanted = new ArrayList<>();
        for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
            wanted.add(d);
        }
        // At READ COMMITTED a concurrent Delivery may take the oldest order of a district between our snapshot
        // and our delete; the delete then skips it. Asking again (a new snapshot) finds the next oldest, so only
        // districts that truly have no undelivered order are skipped. (Stricter levels raise 40001 instead.)
        try (PreparedStatement take = c.prepareStatement(TAKE_OLDEST);
             PreparedStatement left = c.prepareStatement(UNDELIVERED)) {
            for (int attempt = 0; attempt < 10 && !wanted.isEmpty(); attempt++) {
                take.setInt(1, warehouse);
                take.setInt(2, warehouse);
                take.setArray(3, c.createArrayOf("int4", wanted.toArray()));
                try (ResultSet rs = take.executeQuery()) {
                    while (rs.next()) {
                        districts.add(rs.getInt(1));
                        orders.add(rs.getInt(2));
                        wanted.remove(Integer.valueOf(rs.getInt(1)));
                    }
                }
                if (wanted.isEmpty()) {
                    break;
                }
                left.setInt(1, warehouse);
                left.setArray(2, c.createArrayOf("int4", wanted.toArray()));
                try (ResultSet rs = left.executeQuery()) {
                    if (!rs.next()) {
                        break; // the remaining districts have no undelivered order: truly skipped
                    }
                }
            }
        }
        if (districts.isEmpty()) {
            return;
        }
        Integer[] d = districts.toArray(Integer[]::new);
        Integer[] o = orders.toArray(Integer[]::new);
        BigDecimal[] amounts = new BigDecimal[Scale.DISTRICTS_PER_WAREHOUSE + 1];
        int[] customers = new int[Scale.DISTRICTS_PER_WAREHOUSE + 1];
        try (PreparedStatement s = c.prepareStatement(SET_CARRIER)) {
            s.setInt(1, carrier);
            s.setInt(2, warehouse);
            s.setArray(3, c.createArrayOf("int4", d));
            s.setArray(4, c.createArrayOf("int4", o));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    customers[rs.getInt(1)] = rs.getInt(2);
                    amounts[rs.getInt(1)] = BigDecimal.ZERO;
                }
            }
        }
        try (PreparedStatement s = c.prepareStatement(DELIVER_LINES)) {
            s.setInt(1, warehouse);
            s.setArray(2, c.createArrayOf("int4", d));
            s.setArray(3, c.createArrayOf("int4", o));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    int district = rs.getInt(1);
                    amounts[district] = amounts[district].add(rs.getBigDecimal(2));
                }
            }
        }
        List<Integer> creditDistricts = new ArrayList<>();
        List<Integer> creditCustomers = new ArrayList<>();
        List<BigDecimal> creditAmounts = new ArrayList<>();
        for (int district : districts) {
            if (amounts[district] == null) {
                throw new SQLException("order " + warehouse + "/" + district + " has a new_order row but no order");
            }
            creditDistricts.add(district);
            creditCustomers.add(customers[district]);
            creditAmounts.add(amounts[district]);
        }
        try (PreparedStatement s = c.prepareStatement(CREDIT_CUSTOMERS)) {
            s.setArray(1, c.createArrayOf("int4", creditDistricts.toArray()));
            s.setArray(2, c.createArrayOf("int4", creditCustomers.toArray()));
            s.setArray(3, c.createArrayOf("numeric", creditAmounts.toArray()));
            s.setInt(4, warehouse);
            s.executeUpdate();
        }
        delivered = districts.size();
    }

    /** The transaction as one call of {@code tpcc_delivery}, which returns how many districts it delivered. */
    @Override
    public void call(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT tpcc_delivery(?, ?)")) {
            s.setInt(1, warehouse);
            s.setInt(2, carrier);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                delivered = rs.getInt(1);
            }
        }
    }

    /** What this transaction did, counted once it commits. */
    @Override
    public void committed(Counters counters) {
        counters.add("districts", Scale.DISTRICTS_PER_WAREHOUSE);
        counters.add("skippedDistricts", Scale.DISTRICTS_PER_WAREHOUSE - delivered);
        if (delivered < Scale.DISTRICTS_PER_WAREHOUSE) {
            counters.add(WITH_SKIPPED_DISTRICTS, 1);
        }
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws SQLException {
        execute(c);
        committed(attempt::count); // held by the attempt until it commits
    }
}

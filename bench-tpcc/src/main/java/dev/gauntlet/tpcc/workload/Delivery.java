package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.metrics.Counters;
import dev.gauntlet.core.run.Attempt;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Delivery transaction (clause 2.7) over all ten districts of a warehouse (BenchBase's loops over the
 * wrong range, its issue #360): the oldest new order of every district is delivered by one statement in auto-commit,
 * one round trip (the new_order rows taken, their orders given the carrier, their lines the delivery date, their
 * customers credited, as data-modifying CTEs). A district with no undelivered order, or whose oldest order a
 * concurrent Delivery took, is skipped and counted, and so is the transaction that skipped it (the audit allows at
 * most 1% of Delivery transactions to skip any district).
 */
public final class Delivery implements TransactionMode.Procedural {

    static final String NAME = "delivery";

    /** The counter of Delivery transactions that skipped at least one district: what clause 9.2.2.5 limits. */
    public static final String WITH_SKIPPED_DISTRICTS = "withSkippedDistricts";

    /** The start of the statement's own failure when a new_order row has no order: damaged data. */
    private static final String NO_ORDER = "new_order rows without an order: ";

    /**
     * One pass over the wanted districts: each one's oldest new order (one probe of the key each, not a scan of
     * the warehouse's new orders) taken, delivered and its customer credited. It
     * answers the districts it delivered; when a taken new_order row has no order it fails instead, naming them (the
     * text cast to an integer raises {@code invalid_text_representation}; the failed statement leaves nothing).
     */
    private static final String DELIVER = "WITH oldest AS (SELECT w.d AS no_d_id, n.no_o_id FROM unnest(?::int[]) AS w(d) "
            + "CROSS JOIN LATERAL (SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = w.d "
            + "ORDER BY no_o_id LIMIT 1) AS n), "
            + "taken AS (DELETE FROM new_order n USING oldest WHERE n.no_w_id = ? AND n.no_d_id = oldest.no_d_id "
            + "AND n.no_o_id = oldest.no_o_id RETURNING n.no_d_id AS d, n.no_o_id AS o), "
            + "carried AS (UPDATE \"order\" SET o_carrier_id = ? FROM taken WHERE o_w_id = ? AND o_d_id = taken.d "
            + "AND o_id = taken.o RETURNING o_d_id AS d, o_c_id AS c), "
            + "lines AS (UPDATE order_line SET ol_delivery_d = now() FROM taken WHERE ol_w_id = ? "
            + "AND ol_d_id = taken.d AND ol_o_id = taken.o RETURNING ol_d_id AS d, ol_amount), "
            + "credited AS (UPDATE customer SET c_balance = c_balance + coalesce(a.amount, 0), "
            + "c_delivery_cnt = c_delivery_cnt + 1 "
            + "FROM carried LEFT JOIN (SELECT d, sum(ol_amount) AS amount FROM lines GROUP BY d) AS a USING (d) "
            + "WHERE c_w_id = ? AND c_d_id = carried.d AND c_id = carried.c RETURNING c_d_id) "
            + "SELECT (SELECT array_agg(d) FROM taken), (SELECT count(*) FROM credited), "
            + StatementFailure.raise("(SELECT count(*) FROM carried) < (SELECT count(*) FROM taken)", NO_ORDER,
                    "(SELECT string_agg(t.d || '/' || t.o, ',') FROM taken t WHERE t.d NOT IN (SELECT d FROM carried))");
    private static final String UNDELIVERED = "SELECT 1 FROM new_order WHERE no_w_id = ? AND no_d_id = ANY (?) LIMIT 1";

    private final int warehouse;
    private final int carrier;
    /** The districts not delivered yet: each pass commits, so a retried attempt goes on with the rest. */
    private final List<Integer> wanted = new ArrayList<>();
    private int delivered;

    Delivery(int warehouse, int carrier) {
        this.warehouse = warehouse;
        this.carrier = carrier;
        for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
            wanted.add(d);
        }
    }

    static Delivery random(Home home, TpccRandom r) {
        return new Delivery(home.warehouse(), r.uniform(1, 10));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Commit commit() {
        return Commit.IMPLICIT; // each pass one statement, committed by the server as it answers
    }

    /**
     * The transaction's passes, in auto-commit or on a connection the caller commits. Usually one. At READ COMMITTED
     * a concurrent Delivery may take the oldest order of a district between our snapshot and our delete; the delete
     * then skips it. Asking again (a new snapshot) finds the next oldest, so only districts that truly have no
     * undelivered order are skipped. (Stricter levels raise 40001 instead, and the attempt is retried.) In
     * auto-commit each pass is a database transaction of its own, as clause 2.7.4 allows a Delivery to be.
     */
    void execute(Connection c) throws SQLException {
        try (PreparedStatement deliver = c.prepareStatement(DELIVER);
             PreparedStatement left = c.prepareStatement(UNDELIVERED)) {
            for (int pass = 0; pass < 10 && !wanted.isEmpty(); pass++) {
                int i = 0;
                deliver.setObject(++i, districts(wanted));
                deliver.setInt(++i, warehouse);
                deliver.setInt(++i, warehouse);
                deliver.setInt(++i, carrier);
                deliver.setInt(++i, warehouse);
                deliver.setInt(++i, warehouse);
                deliver.setInt(++i, warehouse);
                List<Integer> done = new ArrayList<>();
                try (ResultSet rs = deliver.executeQuery()) {
                    rs.next();
                    Array taken = rs.getArray(1);
                    if (taken != null) {
                        done.addAll(Arrays.asList((Integer[]) taken.getArray()));
                    }
                } catch (SQLException e) {
                    String orders = StatementFailure.detail(e, NO_ORDER).orElseThrow(() -> e);
                    throw new DamagedDataException("Delivery of warehouse " + warehouse + " found " + NO_ORDER
                            + orders + " (district/order)");
                }
                wanted.removeAll(done);
                delivered += done.size();
                if (wanted.isEmpty()) {
                    break;
                }
                left.setInt(1, warehouse);
                left.setObject(2, districts(wanted));
                try (ResultSet rs = left.executeQuery()) {
                    if (!rs.next()) {
                        break; // the remaining districts have no undelivered order: truly skipped
                    }
                }
            }
        }
    }

    private static int[] districts(List<Integer> list) {
        return list.stream().mapToInt(Integer::intValue).toArray();
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

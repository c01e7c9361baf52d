package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.run.Attempt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The Stock-Level transaction (clause 2.8), read-only: distinct items of the district's last 20 orders whose
 * stock is below a threshold of 10-20, in one query. The district is the terminal's own.
 */
final class StockLevel implements TransactionMode.Procedural {

    static final String NAME = "stockLevel";

    /**
     * The district's next order id comes from scalar subqueries, not a join: joined, the range on {@code ol_o_id} is
     * between two column references, which the planner estimates at about a hundred times the 200 order lines it
     * holds, and once the statistics moved during a run (autovacuum analyzing stock and district, about 50 s into
     * the default job on a kept data directory) the prepared statement's calls took a mean of 334 ms where they had
     * taken 1.6 (the slow plan itself was not captured). Against parameters it is the planner's range default, close to
     * the truth, and the plan stays an index range scan of the order lines and a probe of stock for each.
     */
    private static final String LOW_STOCK = "SELECT count(DISTINCT s_i_id) FROM order_line "
            + "JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id "
            + "WHERE ol_w_id = ? AND ol_d_id = ? "
            + "AND ol_o_id >= (SELECT d_next_o_id - 20 FROM district WHERE d_w_id = ? AND d_id = ?) "
            + "AND ol_o_id < (SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?) "
            + "AND s_quantity < ?";

    private final int warehouse;
    private final int district;
    private final int threshold;

    StockLevel(int warehouse, int district, int threshold) {
        this.warehouse = warehouse;
        this.district = district;
        this.threshold = threshold;
    }

    static StockLevel random(Home home, TpccRandom r) {
        return new StockLevel(home.warehouse(), home.district(), r.uniform(10, 20));
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
        try (PreparedStatement s = c.prepareStatement(LOW_STOCK)) {
            for (int i = 0; i < 3; i++) {
                s.setInt(2 * i + 1, warehouse);
                s.setInt(2 * i + 2, district);
            }
            s.setInt(7, threshold);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
            }
        }
    }

    /** The transaction as one call of {@code tpcc_stock_level}. */
    @Override
    public void call(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT tpcc_stock_level(?, ?, ?)")) {
            s.setInt(1, warehouse);
            s.setInt(2, district);
            s.setInt(3, threshold);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
            }
        }
    }

    /** Stock-Level counts nothing. */
    @Override
    public void committed(dev.gauntlet.core.metrics.Counters counters) {
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws SQLException {
        execute(c);
    }
}

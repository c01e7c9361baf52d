package dev.gauntlet.tpcc.schema;

import dev.gauntlet.tpcc.workload.Scale;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * How far the data has grown since it was loaded: the orders runs have added to warehouses 1..n (each district's next
 * order id past the load's {@value Scale#ORDERS_PER_DISTRICT}), beside the orders the load made. Every committed
 * New-Order adds an order, its lines and a new-order row, so data run on again and again is bigger data, and the
 * same command on it is not the same test (more rows to scan, indexes that fit memory less well).
 */
public record Growth(long ordersLoaded, long ordersAdded) {

    public static Growth of(Connection c, int warehouses) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT coalesce(sum(d_next_o_id - ?), 0) FROM "
                + Schema.DISTRICT.name() + " WHERE d_w_id <= ?")) {
            s.setInt(1, Scale.ORDERS_PER_DISTRICT + 1);
            s.setInt(2, warehouses);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return new Growth((long) warehouses * Scale.DISTRICTS_PER_WAREHOUSE * Scale.ORDERS_PER_DISTRICT,
                        rs.getLong(1));
            }
        }
    }

    /** At least as many orders added as loaded: the data has doubled, or more. */
    public boolean doubled() {
        return ordersAdded >= ordersLoaded;
    }

    /** One line for the console when the data has {@link #doubled()}. */
    public String note() {
        return String.format(Locale.ROOT, "Note: earlier runs added %,d orders to the %,d loaded (%.1fx the load): "
                        + "figures fall as the data grows; --fresh (embedded), init --drop or --reload start from a new load.",
                ordersAdded, ordersLoaded, (ordersLoaded + ordersAdded) / (double) ordersLoaded);
    }
}

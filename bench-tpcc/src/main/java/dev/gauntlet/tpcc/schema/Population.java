package dev.gauntlet.tpcc.schema;

import dev.gauntlet.tpcc.workload.NURandConstants;
import dev.gauntlet.tpcc.workload.Scale;
import dev.gauntlet.tpcc.workload.TpccRandom;
import java.sql.SQLException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The initial database population of clause 4.3.3.1, generated field by field into {@link RowSink}s: the
 * item table once, and per warehouse its stock, districts, customers, history, orders (30% undelivered,
 * with new_order rows) and order lines. Rows are counted into {@code progress} as they are written.
 */
final class Population {

    /** Opens a sink for one table's columns; each loader thread has its own connection behind it. */
    @FunctionalInterface
    interface Sinks {
        RowSink open(String table, String columns) throws SQLException;
    }

    /** Rows per warehouse, for progress: 1 + 10 + 100,000 stock + 30,000 x (customer, history, order) + 9,000 + ~300,000. */
    static final long ROWS_PER_WAREHOUSE = 1 + Scale.DISTRICTS_PER_WAREHOUSE + Scale.ITEMS
            + 3L * Scale.DISTRICTS_PER_WAREHOUSE * Scale.CUSTOMERS_PER_DISTRICT
            + (long) Scale.DISTRICTS_PER_WAREHOUSE * (Scale.ORDERS_PER_DISTRICT - Scale.FIRST_UNDELIVERED_ORDER + 1)
            + 10L * Scale.DISTRICTS_PER_WAREHOUSE * Scale.ORDERS_PER_DISTRICT;

    private final NURandConstants constants;
    private final String now;
    private final LongAdder progress;

    Population(NURandConstants constants, String now, LongAdder progress) {
        this.constants = constants;
        this.now = now;
        this.progress = progress;
    }

    void items(Sinks sinks, TpccRandom r) throws SQLException {
        try (RowSink s = sinks.open("item", "i_id, i_im_id, i_name, i_price, i_data")) {
            for (int i = 1; i <= Scale.ITEMS; i++) {
                s.integer(i).integer(r.uniform(1, 10_000)).text(r.aString(14, 24)).decimal(r.cents(100, 10_000), 2)
                        .text(r.data(26, 50));
                row(s);
            }
        }
    }

    void warehouse(int w, Sinks sinks, TpccRandom r) throws SQLException {
        try (RowSink s = sinks.open("warehouse",
                "w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd")) {
            s.integer(w).text(r.aString(6, 10));
            address(s, r);
            s.decimal(r.uniform(0, 2000), 4).decimal(300_000_00, 2);
            row(s);
        }
        try (RowSink s = sinks.open("district", "d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, "
                + "d_zip, d_tax, d_ytd, d_next_o_id")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                s.integer(d).integer(w).text(r.aString(6, 10));
                address(s, r);
                s.decimal(r.uniform(0, 2000), 4).decimal(30_000_00, 2).integer(Scale.ORDERS_PER_DISTRICT + 1);
                row(s);
            }
        }
        stock(w, sinks, r);
        customers(w, sinks, r);
        orders(w, sinks, r);
    }

    private void stock(int w, Sinks sinks, TpccRandom r) throws SQLException {
        try (RowSink s = sinks.open("stock", "s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, "
                + "s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, "
                + "s_remote_cnt, s_data")) {
            for (int i = 1; i <= Scale.ITEMS; i++) {
                s.integer(i).integer(w).integer(r.uniform(10, 100));
                for (int d = 0; d < Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                    s.text(r.aString(24, 24));
                }
                s.integer(0).integer(0).integer(0).text(r.data(26, 50));
                row(s);
            }
        }
    }

    private void customers(int w, Sinks sinks, TpccRandom r) throws SQLException {
        try (RowSink s = sinks.open("customer", "c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, "
                + "c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, "
                + "c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                for (int c = 1; c <= Scale.CUSTOMERS_PER_DISTRICT; c++) {
                    // The first 1,000 customers of a district cover every last name once (clause 4.3.3.1).
                    String last = c <= 1000 ? TpccRandom.lastName(c - 1) : r.lastName(constants);
                    s.integer(c).integer(d).integer(w).text(r.aString(8, 16)).text("OE").text(last);
                    address(s, r);
                    s.text(r.nString(16, 16)).timestamp(now).text(r.uniform(1, 10) == 1 ? "BC" : "GC")
                            .decimal(50_000_00, 2).decimal(r.uniform(0, 5000), 4).decimal(-10_00, 2)
                            .decimal(10_00, 2).integer(1).integer(0).text(r.aString(300, 500));
                    row(s);
                }
            }
        }
        try (RowSink s = sinks.open("history",
                "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                for (int c = 1; c <= Scale.CUSTOMERS_PER_DISTRICT; c++) {
                    s.integer(c).integer(d).integer(w).integer(d).integer(w).timestamp(now).decimal(10_00, 2)
                            .text(r.aString(12, 24));
                    row(s);
                }
            }
        }
    }

    private void orders(int w, Sinks sinks, TpccRandom r) throws SQLException {
        int[][] lineCounts = new int[Scale.DISTRICTS_PER_WAREHOUSE + 1][Scale.ORDERS_PER_DISTRICT + 1];
        try (RowSink s = sinks.open("\"order\"",
                "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                int[] customers = r.permutation(Scale.CUSTOMERS_PER_DISTRICT);
                for (int o = 1; o <= Scale.ORDERS_PER_DISTRICT; o++) {
                    int lines = r.uniform(5, 15);
                    lineCounts[d][o] = lines;
                    s.integer(o).integer(d).integer(w).integer(customers[o - 1]).timestamp(now);
                    if (o < Scale.FIRST_UNDELIVERED_ORDER) {
                        s.integer(r.uniform(1, 10));
                    } else {
                        s.nul();
                    }
                    s.integer(lines).integer(1);
                    row(s);
                }
            }
        }
        try (RowSink s = sinks.open("new_order", "no_o_id, no_d_id, no_w_id")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                for (int o = Scale.FIRST_UNDELIVERED_ORDER; o <= Scale.ORDERS_PER_DISTRICT; o++) {
                    s.integer(o).integer(d).integer(w);
                    row(s);
                }
            }
        }
        try (RowSink s = sinks.open("order_line", "ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
                + "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info")) {
            for (int d = 1; d <= Scale.DISTRICTS_PER_WAREHOUSE; d++) {
                for (int o = 1; o <= Scale.ORDERS_PER_DISTRICT; o++) {
                    boolean delivered = o < Scale.FIRST_UNDELIVERED_ORDER;
                    for (int n = 1; n <= lineCounts[d][o]; n++) {
                        s.integer(o).integer(d).integer(w).integer(n).integer(r.uniform(1, Scale.ITEMS)).integer(w);
                        if (delivered) {
                            s.timestamp(now);
                        } else {
                            s.nul();
                        }
                        s.integer(5).decimal(delivered ? 0 : r.cents(1, 9999_99), 2).text(r.aString(24, 24));
                        row(s);
                    }
                }
            }
        }
    }

    private static void address(RowSink s, TpccRandom r) {
        s.text(r.aString(10, 20)).text(r.aString(10, 20)).text(r.aString(10, 20)).text(r.aString(2, 2)).text(r.zip());
    }

    private void row(RowSink s) throws SQLException {
        s.endRow();
        progress.increment();
    }
}

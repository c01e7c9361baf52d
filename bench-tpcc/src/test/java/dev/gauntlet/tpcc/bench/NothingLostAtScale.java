package dev.gauntlet.tpcc.bench;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.tpcc.checks.NothingLost;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Properties;

/**
 * The nothing-lost check at the write-ups' length: a 12-hour run at 87K tpmC is 62.6M committed New-Orders. Loads an
 * {@code "order"} table of {@code warehouses x 10 x perDistrict} rows into the database at {@code url} (server-side,
 * generate_series; unlogged), writes the same orders into a ledger through {@link CommittedOrders} (the driver's own
 * path, one write per order), loses four of them (three deleted, one whose key another order took), and runs
 * {@link NothingLost} twice: it must name the four, then (rows put back) pass. Prints each step's time, the driver's
 * peak heap and CPU, and the server's temporary-file bytes. Run it in a small heap:
 *
 * <pre>{@code
 * java -Xmx256m -cp ... dev.gauntlet.tpcc.bench.NothingLostAtScale jdbc:postgresql://localhost:5432/postgres bench \
 *     PASSWORD 7000 895 /tmp/ledger-dir
 * }</pre>
 */
public final class NothingLostAtScale {

    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);

    private NothingLostAtScale() {
    }

    public static void main(String[] args) throws Exception {
        String adminUrl = args[0];
        Properties login = new Properties();
        login.setProperty("user", args[1]);
        login.setProperty("password", args[2]);
        int warehouses = Integer.parseInt(args[3]);
        int perDistrict = Integer.parseInt(args[4]);
        Path dir = Path.of(args[5]);
        long orders = (long) warehouses * 10 * perDistrict;
        String url = adminUrl.replaceAll("/[^/?]*(\\?|$)", "/tpcc_scale$1");
        System.out.printf(Locale.ROOT, "%,d orders (%d warehouses x 10 districts x %d), max heap %d MiB%n", orders,
                warehouses, perDistrict, Runtime.getRuntime().maxMemory() >> 20);

        long t = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, login); Statement s = c.createStatement()) {
            boolean loaded = false;
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_class WHERE relname = 'order'")) {
                rs.next();
                if (rs.getLong(1) == 1) {
                    try (ResultSet n = s.executeQuery("SELECT reltuples::bigint FROM pg_class WHERE relname = 'order'")) {
                        n.next();
                        loaded = Math.abs(n.getLong(1) - orders) < orders / 100;
                    }
                }
            }
            if (!loaded) {
                s.execute("DROP TABLE IF EXISTS \"order\"");
                s.execute("CREATE UNLOGGED TABLE \"order\" (o_id int NOT NULL, o_d_id int NOT NULL, o_w_id int NOT NULL, "
                        + "o_c_id int, o_entry_d timestamp, o_carrier_id int, o_ol_cnt int, o_all_local int)");
                s.execute("SET maintenance_work_mem = '512MB'");
                s.execute("INSERT INTO \"order\" SELECT n % " + perDistrict + " + 1, (n / " + perDistrict + ") % 10 + 1, "
                        + "n / " + (10L * perDistrict) + " + 1, n % 3000 + 1, timestamp '2026-01-01' + n * interval "
                        + "'1 microsecond', NULL, 5 + n % 11, 1 FROM generate_series(0::bigint, " + (orders - 1) + ") n");
                s.execute("ALTER TABLE \"order\" ADD PRIMARY KEY (o_w_id, o_d_id, o_id)");
                s.execute("ANALYZE \"order\"");
                System.out.printf(Locale.ROOT, "orders table loaded in %.1f s%n", seconds(t));
            } else {
                System.out.println("orders table already loaded");
            }
        }

        t = System.nanoTime();
        Files.createDirectories(dir);
        long cpu0 = cpu();
        try (CommittedOrders ledger = new CommittedOrders()) {
            ledger.restartIn(dir);
            for (long n = 0; n < orders; n++) {
                ledger.committed(new CommittedOrders.Order((int) (n / (10L * perDistrict)) + 1,
                        (int) (n / perDistrict % 10) + 1, (int) (n % perDistrict) + 1, (int) (n % 3000) + 1,
                        (int) (5 + n % 11), EPOCH.plusNanos(n * 1000)));
            }
            double s = seconds(t);
            System.out.printf(Locale.ROOT, "ledger written: %,d orders, %,d bytes, %.1f s (%.2f us and %.2f us of "
                    + "driver CPU an order)%n", ledger.size(), Files.size(ledger.file()), s, s * 1e6 / orders,
                    (cpu() - cpu0) / 1e3 / orders);
        }
        CommittedOrders ledger = CommittedOrders.read(dir);
        try (Connection c = DriverManager.getConnection(url, login); Statement s = c.createStatement()) {
            // Lost: the last order of three districts; and one whose key holds another order.
            s.execute("CREATE TEMP TABLE kept AS SELECT * FROM \"order\" WHERE (o_w_id, o_d_id, o_id) IN ((1, 1, "
                    + perDistrict + "), (" + warehouses / 2 + ", 5, " + perDistrict + "), (" + warehouses + ", 10, "
                    + perDistrict + "), (" + warehouses + ", 3, 7))");
            s.execute("DELETE FROM \"order\" WHERE (o_w_id, o_d_id, o_id) IN ((1, 1, " + perDistrict + "), ("
                    + warehouses / 2 + ", 5, " + perDistrict + "), (" + warehouses + ", 10, " + perDistrict + "))");
            s.execute("UPDATE \"order\" SET o_entry_d = o_entry_d + interval '1 second' WHERE (o_w_id, o_d_id, o_id) "
                    + "= (" + warehouses + ", 3, 7)");
            check(c, ledger, "four orders lost");
            s.execute("DELETE FROM \"order\" WHERE (o_w_id, o_d_id, o_id) = (" + warehouses + ", 3, 7)");
            s.execute("INSERT INTO \"order\" SELECT * FROM kept");
            check(c, ledger, "every order there");
        }
        System.out.printf(Locale.ROOT, "peak heap %.1f MiB of %d MiB%n", peakHeap() / 1048576.0,
                Runtime.getRuntime().maxMemory() >> 20);
    }

    private static void check(Connection c, CommittedOrders ledger, String what) throws SQLException {
        long temp0 = tempBytes(c);
        long cpu0 = cpu();
        long t = System.nanoTime();
        Check result = NothingLost.run(c, ledger);
        System.out.printf(Locale.ROOT, "check (%s): %s in %.1f s, driver CPU %.1f s, server temporary files %,d MiB: "
                + "%s%n", what, result.status(), seconds(t), (cpu() - cpu0) / 1e9, (tempBytes(c) - temp0) >> 20,
                result.detail());
    }

    private static long tempBytes(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT temp_bytes FROM pg_stat_database WHERE datname = current_database()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long peakHeap() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}

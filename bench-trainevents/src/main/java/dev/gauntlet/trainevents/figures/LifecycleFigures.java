package dev.gauntlet.trainevents.figures;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.run.DriverCpu;
import dev.gauntlet.sql.observe.ServerCpu;
import dev.gauntlet.sql.observe.WaitEvents;
import dev.gauntlet.sql.observe.WalBytes;
import dev.gauntlet.trainevents.workload.Lifecycle;
import dev.gauntlet.trainevents.workload.Variant;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A run's figures beyond the operations' own: events through the lifecycle per second, WAL and storage per event,
 * what the server's sessions waited on, and the CPU a cycle cost the driver and the server.
 */
public final class LifecycleFigures {

    static final String ADDED_PER_SECOND = "eventsAddedPerSecond";
    static final String WAL_PER_EVENT = "walBytesPerEvent";
    static final String DRIVER_CPU = "cpu.driverMsPerCycle";
    static final String SERVER_CPU = "cpu.serverMsPerCycle";
    static final String WAITS = "waits.";
    static final String ACTIVE_SESSIONS = "waits.activeSessions";

    private static final double MIB = 1024.0 * 1024.0;

    private LifecycleFigures() {
    }

    public static Metrics of(RunResult r) {
        Metrics m = new Metrics();
        double seconds = r.measuredSeconds();
        long added = count(r, Lifecycle.ADD);
        long archived = count(r, Lifecycle.ARCHIVE);
        long cycles = Optional.ofNullable(r.observations().get(Lifecycle.CYCLE)).map(Timing::count).orElse(0L);
        if (seconds > 0) {
            m.add(ADDED_PER_SECOND, added / seconds, MetricInfo.higher().addsUp());
            m.add("eventsArchivedPerSecond", archived / seconds, MetricInfo.higher().addsUp());
            m.add("cyclesPerSecond", cycles / seconds, MetricInfo.higher().addsUp());
        }
        r.measuredProbe(WalBytes.NAME).filter(w -> added > 0)
                .ifPresent(w -> m.add(WAL_PER_EVENT, w / (double) added, MetricInfo.lower()));
        Optional<Long> driver = r.measuredProbe(DriverCpu.NAME);
        Optional<Long> server = r.measuredProbe(ServerCpu.NAME);
        if (cycles > 0) {
            driver.ifPresent(d -> m.add(DRIVER_CPU, d / 1e6 / cycles, MetricInfo.lower()));
            server.ifPresent(s -> m.add(SERVER_CPU, s / 1e6 / cycles, MetricInfo.lower()));
            if (driver.isPresent() && server.isPresent() && driver.get() + server.get() > 0) {
                m.add("cpu.driverPercentOfBoth", 100.0 * driver.get() / (driver.get() + server.get()),
                        MetricInfo.lower());
            }
        }
        if (seconds > 0) {
            driver.ifPresent(d -> m.add("cpu.driverCores", d / 1e9 / seconds, MetricInfo.lower().addsUp()));
            server.ifPresent(s -> m.add("cpu.serverCores", s / 1e9 / seconds, MetricInfo.neither().serverWide()));
        }
        addWaits(m, r);
        return m;
    }

    private static long count(RunResult r, String operation) {
        return r.operation(operation).map(o -> o.counter("events")).orElse(0L);
    }

    /**
     * Each wait event's share of the active-session samples of the measured intervals, and the average number of
     * active sessions (samples per second over the sampling rate).
     */
    private static void addWaits(Metrics m, RunResult r) {
        Map<String, Long> samples = new TreeMap<>();
        double seconds = 0;
        for (Interval i : r.intervals()) {
            if (!Phase.MEASURE.equals(i.phase())) {
                continue;
            }
            seconds += i.seconds();
            i.gauges().forEach((name, n) -> {
                if (name.startsWith(WaitEvents.PREFIX)) {
                    samples.merge(name.substring(WaitEvents.PREFIX.length()), n, Long::sum);
                }
            });
        }
        long total = samples.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0 || seconds == 0) {
            return;
        }
        m.add(ACTIVE_SESSIONS, total / (seconds * WaitEvents.SAMPLES_PER_SECOND), MetricInfo.neither().serverWide());
        samples.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> m.add(WAITS + e.getKey() + "Percent", 100.0 * e.getValue() / total,
                        MetricInfo.neither().serverWide()));
    }

    /** The tables' sizes at the end of the run (heap, TOAST and indexes apart), and storage per archived event. */
    public static void addSizes(Metrics m, Connection c, RunResult r) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT c.relname, pg_relation_size(c.oid), "
                        + "CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END, "
                        + "pg_indexes_size(c.oid), (SELECT count(*) FROM " + Variant.ARCHIVE + ") "
                        + "FROM pg_class c WHERE c.relname IN ('" + Variant.EVENTS + "', '" + Variant.STATUS + "', '"
                        + Variant.ARCHIVE + "') AND c.relkind = 'r' AND pg_table_is_visible(c.oid) ORDER BY 1")) {
            while (rs.next()) {
                String table = switch (rs.getString(1)) {
                    case Variant.EVENTS -> "events";
                    case Variant.STATUS -> "status";
                    default -> "archive";
                };
                long heap = rs.getLong(2);
                long toast = rs.getLong(3);
                long index = rs.getLong(4);
                m.add("size." + table + "HeapMiB", heap / MIB, MetricInfo.lower().serverWide());
                m.add("size." + table + "ToastMiB", toast / MIB, MetricInfo.lower().serverWide());
                m.add("size." + table + "IndexMiB", index / MIB, MetricInfo.lower().serverWide());
                long rows = rs.getLong(5);
                if (table.equals("archive") && rows > 0) {
                    m.add("size.archiveBytesPerEvent", (heap + toast + index) / (double) rows,
                            MetricInfo.lower().serverWide());
                }
            }
        }
    }
}

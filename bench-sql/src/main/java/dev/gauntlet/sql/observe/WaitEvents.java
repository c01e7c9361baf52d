package dev.gauntlet.sql.observe;

import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.run.GaugeProbe;
import dev.gauntlet.sql.ConnectionSettings;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What the server's sessions are waiting on, sampled from {@code pg_stat_activity} ten times a second on a thread
 * of its own, the way ASH and pg_wait_sampling look at a server: each sample counts the active sessions of the
 * benchmark's database by wait event ({@code Lock:transactionid}, {@code LWLock:WALWrite}, {@code IO:DataFileRead};
 * {@code CPU} for an active session waiting on nothing). Each interval's gauges {@code waits-<event>} are the
 * session-samples of that interval, so an event's share of all samples is its share of the database's active
 * time, and samples over {@link #SAMPLES_PER_SECOND} per second are the average active sessions in it.
 */
public final class WaitEvents implements GaugeProbe, AutoCloseable {

    public static final String PREFIX = "waits-";
    public static final int SAMPLES_PER_SECOND = 10;

    private static final String SAMPLE = "SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU'), count(*) "
            + "FROM pg_stat_activity WHERE state = 'active' AND datname = current_database() "
            + "AND pid <> pg_backend_pid() AND backend_type = 'client backend' GROUP BY 1";

    private final ConnectionSettings settings;
    private final Map<String, Long> counts = new HashMap<>();
    private final Thread sampler;
    private volatile boolean stopped;

    private WaitEvents(ConnectionSettings settings) {
        this.settings = settings;
        this.sampler = new Thread(this::sampleUntilClosed, "gauntlet-wait-events");
        sampler.setDaemon(true);
    }

    /** Starts sampling now; {@link #close} stops it. */
    public static WaitEvents start(ConnectionSettings settings) {
        WaitEvents w = new WaitEvents(settings);
        w.sampler.start();
        return w;
    }

    @Override
    public String name() {
        return "waits";
    }

    /** Session-samples counted since the previous call: each interval its own. */
    @Override
    public GaugeInfo.Kind kind() {
        return GaugeInfo.Kind.RATE;
    }

    /** Each process samples every session of the benchmark's database: the same server read by each. */
    @Override
    public GaugeInfo.Merge merge(String gauge) {
        return GaugeInfo.Merge.SERVER;
    }

    @Override
    public Map<String, Long> sample() {
        Map<String, Long> interval = new TreeMap<>();
        synchronized (counts) {
            counts.forEach((event, n) -> interval.put(PREFIX + event, n));
            counts.replaceAll((event, n) -> 0L);
        }
        return interval;
    }

    private void sampleUntilClosed() {
        long period = TimeUnit.SECONDS.toNanos(1) / SAMPLES_PER_SECOND;
        long next = System.nanoTime();
        HeldConnection c = new HeldConnection(settings);
        while (!stopped) {
            try {
                Map<String, Long> now = new LinkedHashMap<>();
                // Prepared: the session caches the parsed statement, and from its fifth use the server its plan.
                try (PreparedStatement s = c.get().prepareStatement(SAMPLE); ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        now.put(rs.getString(1), rs.getLong(2));
                    }
                }
                synchronized (counts) {
                    now.forEach((event, n) -> counts.merge(event, n, Long::sum));
                }
            } catch (SQLException e) {
                c.close(); // the server may be restarting; try again next tick
            }
            next += period;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException e) {
                    break;
                }
            } else {
                next = System.nanoTime();
            }
        }
        c.close();
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
    }
}

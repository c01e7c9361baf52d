package dev.gauntlet.queue;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.run.Role;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code --drain}: after the measured run the writers are stopped and the readers alone run on, until every group has
 * read everything written (or the limit passes); how long each group took to catch up, and from how far behind, is
 * the figure. The backlog is read from the database every 50 ms; the readers keep recording into the run's delivery
 * ledger, so the delivery checks after the drain see what they read.
 */
final class Drain {

    /** The messages each group still has to read, by group name ({@code g1}, ... or {@code queue}). */
    @FunctionalInterface
    interface Backlog {
        Map<String, Long> read(Connection c) throws SQLException;
    }

    /** Per group: the backlog when the drain began, and the seconds it took to reach zero (null: it never did). */
    record Outcome(Map<String, Long> backlogAtStart, Map<String, Double> seconds, Duration limit) {

        void addTo(Metrics m) {
            backlogAtStart.forEach((g, n) -> m.add("drain." + g + "Backlog", n, MetricInfo.neither()));
            seconds.forEach((g, s) -> {
                if (s != null) {
                    m.add("drain." + g + "Seconds", s, MetricInfo.lower());
                }
            });
        }

        /** {@code Drain: g1 caught up 1,200 messages in 0.41 s; g2 ...}. */
        String line() {
            List<String> parts = new ArrayList<>();
            backlogAtStart.forEach((g, n) -> {
                Double s = seconds.get(g);
                parts.add(s == null ? String.format(Locale.ROOT, "%s still behind after %d s (%,d at the start)", g,
                        limit.toSeconds(), n)
                        : String.format(Locale.ROOT, "%s caught up %,d messages in %.2f s", g, n, s));
            });
            return "Drain: " + String.join("; ", parts);
        }
    }

    private Drain() {
    }

    static Outcome run(ConnectionSettings settings, Workload<Connection> workload, int readers, Duration limit,
                       Backlog backlog, PrintStream out) throws SQLException, InterruptedException {
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(PubSubWorkload.READERS, readers))
                .workers(readers).duration(limit).reportEvery(Duration.ofSeconds(1)).build();
        try (JdbcTarget target = JdbcTarget.direct(settings); Connection watch = settings.connect()) {
            watch.setAutoCommit(true);
            Map<String, Long> atStart = backlog.read(watch);
            Map<String, Double> seconds = new LinkedHashMap<>();
            atStart.keySet().forEach(g -> seconds.put(g, null));
            Runner<Connection> runner = new Runner<>(plan, workload, target, RunListener.NONE, null);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread readersThread = new Thread(() -> {
                try {
                    runner.run();
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "gauntlet-drain");
            long start = System.nanoTime();
            readersThread.start();
            long nextPrint = start + TimeUnit.SECONDS.toNanos(1);
            while (readersThread.isAlive()) {
                Map<String, Long> now = backlog.read(watch);
                double elapsed = (System.nanoTime() - start) / 1e9;
                now.forEach((g, n) -> {
                    if (n <= 0 && seconds.get(g) == null) {
                        seconds.put(g, elapsed);
                    }
                });
                if (seconds.values().stream().allMatch(java.util.Objects::nonNull)) {
                    runner.requestStop("drained");
                    break;
                }
                if (System.nanoTime() >= nextPrint) {
                    out.printf(Locale.ROOT, "[drain %4.0fs] behind: %s%n", elapsed, now);
                    nextPrint += TimeUnit.SECONDS.toNanos(1);
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            readersThread.join();
            if (failed.get() != null) {
                throw new IllegalStateException("the drain's readers failed: " + failed.get(), failed.get());
            }
            return new Outcome(atStart, seconds, limit);
        }
    }
}

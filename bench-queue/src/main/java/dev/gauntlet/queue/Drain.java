package dev.gauntlet.queue;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.PhasePlan;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.sql.ConnectionSettings;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code --drain}: a last phase of the run itself, {@value #PHASE}, in which the writers (and retention) stop and the
 * readers alone go on, until every group has read everything written or the limit passes; how long each group took to
 * catch up, and from how far behind, is the figure. It is the phase's {@link Condition}: the runner asks it every
 * 50 ms, saying how long the phase has run, and it reads the backlog from the database each time. The readers keep recording into the run's delivery
 * ledger, so the delivery checks after the run see what they read.
 */
final class Drain implements Condition {

    /** The phase's name in results, reports and the dashboard. */
    static final String PHASE = "drain";

    /** The messages each group still has to read, by group name ({@code g1}, ... or {@code queue}). */
    @FunctionalInterface
    interface Backlog {
        Map<String, Long> read(Connection c) throws SQLException;
    }

    /**
     * Per group: the backlog at the drain's first read, and the seconds from the phase's start until a read found it
     * at zero (null: none did). A group with nothing left at the first read has that read's time, an upper bound.
     */
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
                        : n == 0 ? String.format(Locale.ROOT, "%s had nothing left when first read, %.2f s in", g, s)
                        : String.format(Locale.ROOT, "%s caught up %,d messages in %.2f s", g, n, s));
            });
            return "Drain: " + String.join("; ", parts);
        }
    }

    /** A plan that ends with a drain, and the drain. */
    record Drained(RunPlan plan, Drain drain) {
    }

    private final ConnectionSettings settings;
    private final Backlog backlog;
    private final Duration limit;
    private final PrintStream out;
    private Connection watch;
    /** Seconds into the phase at which the next progress line is due. */
    private long nextPrint;
    /** The backlog when this run's drain began; null until it begins. */
    private Map<String, Long> atStart;
    private final Map<String, Double> seconds = new LinkedHashMap<>();

    private Drain(ConnectionSettings settings, Backlog backlog, Duration limit, PrintStream out) {
        this.settings = settings;
        this.backlog = backlog;
        this.limit = limit;
        this.out = out;
    }

    /**
     * {@code plan} with a drain phase of at most {@code limit} after its own phases, run by the readers alone; the
     * returned drain is that phase's condition and, after the run, its outcome.
     */
    static Drained after(RunPlan plan, ConnectionSettings settings, Backlog backlog, Duration limit, PrintStream out) {
        Drain drain = new Drain(settings, backlog, limit, out);
        RunPlan.Builder b = plan.toBuilder();
        if (plan.phases().isEmpty()) {
            plan.schedule().forEach(b::phase); // the priming stays the plan's, ahead of them all
        }
        b.phase(new PhasePlan(PHASE, limit, false).onlyRoles(PubSubWorkload.READERS).until(drain));
        return new Drained(b.build(), drain);
    }

    @Override
    public boolean holds(Duration inPhase) throws SQLException {
        if (atStart == null) {
            watch = settings.connect();
            watch.setAutoCommit(true);
            nextPrint = 1;
            atStart = backlog.read(watch);
            atStart.keySet().forEach(g -> seconds.put(g, null));
        }
        if (watch == null) {
            return true; // drained already: a phase asks no more once it holds
        }
        Map<String, Long> now = backlog.read(watch);
        double elapsed = inPhase.toNanos() / 1e9;
        now.forEach((g, n) -> {
            if (n <= 0 && seconds.get(g) == null) {
                seconds.put(g, elapsed);
            }
        });
        if (seconds.values().stream().allMatch(Objects::nonNull)) {
            closeWatch();
            return true;
        }
        if (elapsed >= nextPrint) {
            out.printf(Locale.ROOT, "[drain %4.0fs] behind: %s%n", elapsed, now);
            nextPrint++;
        }
        return false;
    }

    /** Forgets the last run's drain: the same plan (and so this condition) serves every run of an experiment. */
    @Override
    public void runStarts() {
        closeWatch();
        atStart = null;
        seconds.clear();
    }

    /** What the drain measured; empty when the run ended before the drain began. */
    Optional<Outcome> outcome() {
        closeWatch();
        return atStart == null ? Optional.empty() : Optional.of(new Outcome(atStart, seconds, limit));
    }

    private void closeWatch() {
        if (watch != null) {
            try {
                watch.close();
            } catch (SQLException ignored) {
                // only a watch: what it read is kept
            }
            watch = null;
        }
    }
}

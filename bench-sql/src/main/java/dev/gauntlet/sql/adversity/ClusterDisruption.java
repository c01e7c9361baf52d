package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.sql.lab.NodeFaults;
import dev.gauntlet.sql.lab.PatroniCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A fault of a cluster Gauntlet runs ({@link PatroniCluster}), recorded with what the cluster did: the members
 * before, the availability gap (from the fault to the first write accepted again through the workload's own route,
 * and by which node), who led after and on which timeline, and, for the node it hit, when it was back in the
 * cluster and whether pg_rewind ran. The probing runs on threads of its own, so a fault's end (and its recovery)
 * is not held up by it; {@link #undo} waits for them at the end of the run and says what they had not seen.
 */
abstract class ClusterDisruption extends SystemDisruption {

    /** How often the gap's probe writes and the rejoin's watch asks Patroni. */
    private static final long POLL_MILLIS = 100;
    /** How long the end of the run waits for a probe still going. */
    private static final Duration UNDO_WAIT = Duration.ofSeconds(60);

    private final List<Thread> watches = new ArrayList<>();
    private volatile Thread gap;
    private volatile boolean settled;
    private volatile boolean abandoned;
    private volatile boolean closing;
    private volatile Runnable unfinished = () -> { };

    ClusterDisruption(String name, SystemUnderTest system) {
        super(name, system);
    }

    /**
     * Brings the fault on, or runs the event through. A fault that fails half-way has no gap to measure: the probe
     * stops, and the note says so.
     */
    abstract void fault(Log log) throws Exception;

    @Override
    public final void start(Log log) throws Exception {
        try {
            fault(log);
        } catch (Exception | Error e) {
            abandoned = true;
            throw e;
        }
    }

    PatroniCluster lab() {
        return system.cluster().orElseThrow(() -> new IllegalStateException("no cluster runs for this run"));
    }

    NodeFaults faults() {
        return lab().faults();
    }

    /** The members as Patroni lists them now, in one line. */
    String members() {
        try {
            return NodeFaults.describe(lab().members());
        } catch (IllegalStateException e) {
            return "members unknown (" + e.getMessage() + ")";
        }
    }

    /** Notes the members before the fault and returns the leader's name (or "none"). */
    String before(Log log) {
        List<PatroniCluster.Member> members = lab().members();
        log.note("before: " + NodeFaults.describe(members));
        return members.stream().filter(PatroniCluster.Member::leads).map(PatroniCluster.Member::name).findFirst()
                .orElse("none");
    }

    /**
     * Starts watching for the availability gap from {@code t0} (the fault, by {@link System#nanoTime}): writes through
     * the workload's route every {@value #POLL_MILLIS} ms until one is accepted after one was refused; one begun
     * after the fault had {@linkplain #settled() settled} and accepted before any was refused means writes never
     * stopped (gap 0).
     */
    void watchGap(long t0, Log log) {
        gap = watch("gap", () -> {
            boolean refused = false;
            while (!closing) {
                if (abandoned) {
                    log.note("no availability gap: the fault failed before it was through");
                    return;
                }
                // a write begun before the fault was through may be answered after it: only one begun after counts
                boolean after = settled;
                Optional<String> by = system.tryWrite();
                double s = (System.nanoTime() - t0) / 1e9;
                if (by.isEmpty()) {
                    refused = true;
                } else if (refused || after) {
                    double gap = refused ? s : 0;
                    log.figure(DisruptionRecord.AVAILABILITY_GAP, gap);
                    log.note(refused ? String.format(Locale.ROOT, "writes accepted again %.1f s after the fault, by "
                            + "%s; %s", gap, nodeAt(by.get()), members())
                            : "writes were never refused (" + members() + ")");
                    return;
                }
                sleep(POLL_MILLIS);
            }
            log.note(String.format(Locale.ROOT, "no write was accepted again in the %.0f s to the run's end",
                    (System.nanoTime() - t0) / 1e9));
        });
    }

    /**
     * Starts watching for {@code node} to be back in the cluster (running, as leader or replica) from {@code t0}, and
     * notes when, in which role and on which timeline, and whether pg_rewind ran on it since {@code rewindsBefore}.
     */
    void watchRejoin(String node, long t0, int rewindsBefore, String after, Log log) {
        watchRejoin(node, t0, rewindsBefore, after, m -> true, log);
    }

    /**
     * The same, {@code changed} saying whether what Patroni lists is the node after the fault and not a view from
     * before it (a member killed a moment ago is still listed as running until Patroni's next loop).
     */
    void watchRejoin(String node, long t0, int rewindsBefore, String after,
                     java.util.function.Predicate<PatroniCluster.Member> changed, Log log) {
        watch("rejoin-" + node, () -> {
            while (!closing) {
                Optional<PatroniCluster.Member> m = backNow(node).filter(changed);
                if (m.isPresent()) {
                    List<NodeFaults.Rewind> rewinds = faults().rewinds(node);
                    List<NodeFaults.Rewind> since = rewinds.subList(Math.min(rewindsBefore, rewinds.size()),
                            rewinds.size());
                    log.note(String.format(Locale.ROOT, "%s back as %s%s %.1f s after %s; %s", node, m.get().role(),
                            m.get().timeline() == null ? "" : " on timeline " + m.get().timeline(),
                            (System.nanoTime() - t0) / 1e9, after, since.isEmpty() ? "no pg_rewind"
                                    : "pg_rewind ran" + (since.size() > 1 ? " " + since.size() + " times" : "")
                                    + " (" + since.stream().map(String::valueOf).collect(
                                    java.util.stream.Collectors.joining("; ")) + ")"));
                    return;
                }
                sleep(POLL_MILLIS * 5);
            }
            log.note(node + " was not back in the cluster by the run's end (" + members() + ")");
        });
    }

    /**
     * The node as Patroni lists it now if it is back (running, and either leading or streaming on the leader's
     * timeline); empty when it is not, or no REST API answered this time.
     */
    Optional<PatroniCluster.Member> backNow(String node) {
        try {
            List<PatroniCluster.Member> members = lab().members();
            Optional<PatroniCluster.Member> leader = members.stream().filter(PatroniCluster.Member::leads).findFirst();
            return members.stream().filter(x -> x.name().equals(node)).filter(x -> back(x, leader)).findFirst();
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    private static boolean back(PatroniCluster.Member m, Optional<PatroniCluster.Member> leader) {
        if (!"running".equals(m.state()) && !"streaming".equals(m.state())) {
            return false;
        }
        if (m.leads()) {
            return true;
        }
        return m.lagBytes() != null && leader.isPresent() && leader.get().timeline() != null
                && leader.get().timeline().equals(m.timeline());
    }

    /** The fault's own action is over (its event ran, or its length ended): writes accepted now end the gap at 0. */
    void settled() {
        settled = true;
    }

    /** Waits until the gap's probe has seen a write accepted again, at most {@code limit}. */
    void awaitGap(Duration limit) throws InterruptedException {
        Thread t = gap;
        if (t != null) {
            t.join(limit.toMillis());
        }
    }

    private Thread watch(String what, Runnable body) {
        Thread t = new Thread(body, "gauntlet-" + name + "-" + what);
        t.setDaemon(true);
        synchronized (watches) {
            watches.add(t);
        }
        t.start();
        return t;
    }

    /** The node a write's server address names, e.g. {@code n2}. */
    private String nodeAt(String address) {
        return lab().nodes().entrySet().stream().filter(e -> e.getValue().equals(address)).map(e -> e.getKey())
                .findFirst().orElse(address);
    }

    /** Undoes what the fault left on (a cut link, a held process) when the run ends in the middle of it. */
    void onUnfinished(Runnable undo) {
        unfinished = undo;
    }

    @Override
    public void undo(Log log) throws Exception {
        settled = true;
        unfinished.run();
        long deadline = System.nanoTime() + UNDO_WAIT.toNanos();
        List<Thread> all;
        synchronized (watches) {
            all = List.copyOf(watches);
        }
        for (Thread t : all) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        closing = true;
        for (Thread t : all) {
            t.join(5_000);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

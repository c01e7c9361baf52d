package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A node's PostgreSQL killed at once (SIGKILL to its postmaster and every process under it), as a crash looks to the
 * cluster; with {@code patroni} its Patroni too, a machine crash, booted again at the end of the disruption's length.
 * Patroni fails over from a leader that dies ({@code primary_start_timeout: 0}); the event lasts until a write is
 * accepted again, at most {@link #FAILOVER_LIMIT}.
 *
 * <p>With {@code holdReplication} > 0 the node's WAL senders are first held (SIGSTOP) that long while the clients go
 * on, as replicas on a slow link fall behind: asynchronous replicas then lack the last commits the clients were told
 * about, and a failover loses them (what a nothing-lost check must find); synchronous ones make those commits wait.
 */
final class NodeKill extends ClusterDisruption {

    static final Duration FAILOVER_LIMIT = Duration.ofMinutes(2);

    private final String which;
    private final boolean patroni;
    private final Duration holdReplication;
    private volatile String node;
    private volatile boolean crashed;
    private volatile int rewinds;

    NodeKill(String name, SystemUnderTest system, String which, boolean patroni, Duration holdReplication) {
        super(name, system);
        this.which = which;
        this.patroni = patroni;
        this.holdReplication = holdReplication;
    }

    @Override
    void fault(Log log) throws Exception {
        String leader = before(log);
        node = faults().resolve(which);
        rewinds = faults().rewinds(node).size();
        String role = node.equals(leader) ? " (the leader)" : "";
        StoppedProcesses held = holdReplication.compareTo(Duration.ZERO) > 0 ? hold(log) : null;
        long postmaster = faults().postmasterPid(node);
        long t0 = System.nanoTime();
        watchGap(t0, log);
        if (patroni) {
            faults().crash(node);
            crashed = true;
            log.note(node + role + " crashed: its Patroni and PostgreSQL killed (SIGKILL)");
        } else {
            int n = faults().killPostgres(node);
            log.note(node + role + "'s PostgreSQL killed (SIGKILL to " + n + " processes)");
        }
        if (held != null) {
            held.kill(); // gone with the node already: this only ends the hook that would resume them
        }
        settled();
        awaitGap(FAILOVER_LIMIT);
        if (!patroni) {
            // back once a new postmaster runs: until Patroni's next loop it lists the killed one as running
            String killed = node;
            watchRejoin(node, t0, rewinds, "the kill", m -> {
                long now = faults().postmasterPid(killed);
                return now != 0 && now != postmaster;
            }, log);
        }
    }

    @Override
    public void stop(Log log) throws Exception {
        if (!crashed) {
            return;
        }
        long t0 = System.nanoTime();
        faults().boot(node);
        crashed = false;
        log.note(node + " booted (its Patroni started again)");
        String booted = node;
        watchRejoin(node, t0, rewinds, "its boot", m -> faults().postmasterPid(booted) != 0, log);
    }

    /**
     * Holds the node's WAL senders for {@link #holdReplication} and notes how far behind each replica fell; returns
     * them still stopped, to die with the node (resumed, they would send what they hold). Resumed at once if this
     * fails half-way.
     */
    private StoppedProcesses hold(Log log) throws Exception {
        List<Long> senders = faults().walSenders(node);
        if (senders.isEmpty()) {
            throw new IllegalStateException(node + " sends WAL to no replica: there is nothing to hold back");
        }
        StoppedProcesses held = StoppedProcesses.stop(senders, "node-kill");
        try {
            Thread.sleep(holdReplication.toMillis());
            Map<String, Long> behind = faults().behind(node);
            behind.forEach((n, bytes) -> log.figure("behindBytes." + n, bytes));
            log.note(node + "'s WAL senders held " + Durations.format(holdReplication) + " (SIGSTOP) before it died: "
                    + (behind.isEmpty() ? "how far behind could not be read" : String.join(", ", behind.entrySet()
                    .stream().map(e -> String.format(Locale.ROOT, "%s %,.1f MB behind", e.getKey(),
                            e.getValue() / (double) (1 << 20))).toList())));
            return held;
        } catch (Exception | Error e) {
            held.resumeQuietly();
            throw e;
        }
    }
}

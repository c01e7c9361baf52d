package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.lab.PatroniCluster;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A rolling restart, as a rolling upgrade goes: each replica's PostgreSQL restarted through Patroni and awaited back,
 * then a switchover away from the leader, then the old leader restarted as a replica. Each step is noted with its
 * time; the event ends when the last member is back.
 */
final class RollingRestart extends ClusterDisruption {

    private static final Duration STEP_LIMIT = Duration.ofMinutes(2);

    RollingRestart(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    public void start(Log log) throws Exception {
        String leader = before(log);
        List<String> replicas = lab().members().stream().filter(m -> !m.leads()).map(PatroniCluster.Member::name)
                .toList();
        long t0 = System.nanoTime();
        watchGap(t0, log);
        for (String replica : replicas) {
            restart(replica, t0, log);
        }
        String answer = faults().switchover(leader, null);
        log.note(String.format(Locale.ROOT, "%.1f s: switchover from %s: Patroni said '%s'", since(t0), leader, answer));
        restart(leader, t0, log);
        settled();
        awaitGap(NodeKill.FAILOVER_LIMIT);
    }

    private void restart(String node, long t0, Log log) {
        faults().restart(node);
        long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<PatroniCluster.Member> m = Optional.empty();
            try {
                m = lab().members().stream().filter(x -> x.name().equals(node)).findFirst();
            } catch (IllegalStateException e) {
                // ask again
            }
            if (m.isPresent() && ("running".equals(m.get().state()) || "streaming".equals(m.get().state()))
                    && (m.get().leads() || m.get().lagBytes() != null)) {
                log.note(String.format(Locale.ROOT, "%.1f s: %s restarted, back as %s", since(t0), node,
                        m.get().role()));
                return;
            }
            sleep(250);
        }
        throw new IllegalStateException(node + " was not back in " + STEP_LIMIT.toMinutes() + " min after its restart ("
                + members() + ")");
    }

    private static double since(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}

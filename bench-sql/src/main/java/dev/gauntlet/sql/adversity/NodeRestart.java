package dev.gauntlet.sql.adversity;

/**
 * A node's PostgreSQL restarted by its Patroni ({@code POST /restart}, a fast shutdown and a start), as an operator
 * restarts one member: a leader stays the leader (Patroni holds the key meanwhile), its clients lose their sessions.
 * The event lasts until a write is accepted again.
 */
final class NodeRestart extends ClusterDisruption {

    private final String which;

    NodeRestart(String name, SystemUnderTest system, String which) {
        super(name, system);
        this.which = which;
    }

    @Override
    void fault(Log log) throws Exception {
        String leader = before(log);
        String node = faults().resolve(which);
        int rewinds = faults().rewinds(node).size();
        long postmaster = faults().postmasterPid(node);
        long t0 = System.nanoTime();
        watchGap(t0, log);
        String answer = faults().restart(node);
        settled();
        log.note(node + (node.equals(leader) ? " (the leader)" : "") + " restarted by Patroni: '" + answer + "'");
        awaitGap(NodeKill.FAILOVER_LIMIT);
        watchRejoin(node, t0, rewinds, "the restart", m -> {
            long now = faults().postmasterPid(node);
            return now != 0 && now != postmaster;
        }, log);
    }
}

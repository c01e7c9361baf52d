package dev.gauntlet.sql.adversity;

import java.util.List;

/**
 * A node's disk stalled, as its clients and its Patroni see it: every process of its PostgreSQL stopped (SIGSTOP) for
 * the disruption's length, then resumed (SIGCONT); a JVM shutdown hook and the end of the run resume them if the run
 * ends in between. Patroni's queries to its own PostgreSQL hang meanwhile, as they would on a frozen disk: whether
 * it fails over is the cluster's decision.
 */
final class NodeStall extends ClusterDisruption {

    private final String which;
    private volatile String node;
    private volatile StoppedProcesses stopped;

    NodeStall(String name, SystemUnderTest system, String which) {
        super(name, system);
        this.which = which;
    }

    @Override
    void fault(Log log) throws Exception {
        String leader = before(log);
        node = faults().resolve(which);
        List<Long> pids = faults().postgresProcesses(node);
        long t0 = System.nanoTime();
        watchGap(t0, log);
        stopped = StoppedProcesses.stop(pids, "node-stall");
        onUnfinished(stopped::resumeQuietly);
        log.note(node + (node.equals(leader) ? " (the leader)" : "") + ": its PostgreSQL's " + pids.size()
                + " processes stopped (SIGSTOP)");
    }

    @Override
    public void stop(Log log) throws Exception {
        if (stopped == null) {
            return;
        }
        stopped.resume();
        settled();
        log.note(node + " resumed; " + members());
        watchRejoin(node, System.nanoTime(), faults().rewinds(node).size(), "it resumed", log);
    }
}

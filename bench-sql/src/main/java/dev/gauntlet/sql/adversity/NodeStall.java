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
    private volatile List<Long> stopped = List.of();
    private volatile Thread hook;

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
        hook = new Thread(this::resumeQuietly, "gauntlet-node-stall-undo");
        Runtime.getRuntime().addShutdownHook(hook);
        onUnfinished(this::resumeQuietly);
        stopped = pids;
        DiskStall.signal("STOP", pids);
        log.note(node + (node.equals(leader) ? " (the leader)" : "") + ": its PostgreSQL's " + pids.size()
                + " processes stopped (SIGSTOP)");
    }

    @Override
    public void stop(Log log) throws Exception {
        if (stopped.isEmpty()) {
            return;
        }
        DiskStall.signal("CONT", stopped);
        stopped = List.of();
        settled();
        log.note(node + " resumed; " + members());
        removeHook();
        watchRejoin(node, System.nanoTime(), faults().rewinds(node).size(), "it resumed", log);
    }

    private void resumeQuietly() {
        List<Long> pids = stopped;
        if (!pids.isEmpty()) {
            try {
                DiskStall.signal("CONT", pids);
                stopped = List.of();
            } catch (Exception ignored) {
                // gone already, or the JVM is going
            }
        }
    }

    private void removeHook() {
        try {
            if (hook != null) {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: it resumed them too
        }
    }
}

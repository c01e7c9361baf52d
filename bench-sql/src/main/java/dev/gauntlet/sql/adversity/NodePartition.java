package dev.gauntlet.sql.adversity;

import dev.gauntlet.sql.lab.NodeFaults;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A node cut off for the disruption's length: from everything (its link down: the other nodes, etcd, HAProxy and the
 * driver), or from some of them ({@code from: dcs, nodes}: a leader its clients still reach while it cannot renew its
 * leader key nor replicate; the commits it acknowledges meanwhile are the ones an asynchronous cluster loses).
 * Healed at the end, after which Patroni rejoins it (pg_rewind when it had led on).
 */
final class NodePartition extends ClusterDisruption {

    private final String which;
    private final Set<NodeFaults.Side> from;
    private volatile String node;
    private volatile int rewinds;
    private volatile long cutAt;
    private volatile boolean cut;

    NodePartition(String name, SystemUnderTest system, String which, Set<NodeFaults.Side> from) {
        super(name, system);
        this.which = which;
        this.from = from;
    }

    @Override
    void fault(Log log) throws Exception {
        String leader = before(log);
        node = faults().resolve(which);
        rewinds = faults().rewinds(node).size();
        cutAt = System.nanoTime();
        watchGap(cutAt, log);
        onUnfinished(this::healQuietly);
        faults().cut(node, from, true);
        cut = true;
        log.note(node + (node.equals(leader) ? " (the leader)" : "") + " cut off from " + sides());
    }

    @Override
    public void stop(Log log) throws Exception {
        if (!cut) {
            return;
        }
        faults().cut(node, from, false);
        cut = false;
        settled();
        long t0 = System.nanoTime();
        log.note(String.format(Locale.ROOT, "%s joined again after %.1f s; %s", node, (t0 - cutAt) / 1e9,
                members()));
        watchRejoin(node, t0, rewinds, "the heal", log);
    }

    private void healQuietly() {
        if (cut) {
            try {
                faults().cut(node, from, false);
                cut = false;
            } catch (RuntimeException ignored) {
                // the lab's teardown removes the links anyway
            }
        }
    }

    private String sides() {
        return from.size() == NodeFaults.Side.values().length ? "everything (its link down)"
                : from.stream().map(NodeFaults.Side::label).collect(Collectors.joining(", "));
    }
}

package dev.gauntlet.sql.adversity;

import java.util.List;

/**
 * A majority of the cluster's etcd members cut off for the disruption's length: the store has no quorum, Patroni
 * cannot renew the leader key, and the leader demotes itself (Patroni 3.0 without failsafe mode): no writes until
 * the store is back and a leader is elected again.
 */
final class DcsOutage extends ClusterDisruption {

    private volatile List<String> members;
    private volatile boolean cut;

    DcsOutage(String name, SystemUnderTest system) {
        super(name, system);
    }

    @Override
    void fault(Log log) throws Exception {
        before(log);
        members = faults().dcsMajority();
        long t0 = System.nanoTime();
        watchGap(t0, log);
        onUnfinished(this::healQuietly);
        faults().cutDcs(members, true);
        cut = true;
        log.note("etcd members " + String.join(", ", members) + " cut off: no quorum");
    }

    @Override
    public void stop(Log log) throws Exception {
        if (!cut) {
            return;
        }
        faults().cutDcs(members, false);
        cut = false;
        settled();
        log.note("etcd members joined again; " + members());
    }

    private void healQuietly() {
        if (cut) {
            try {
                faults().cutDcs(members, false);
                cut = false;
            } catch (RuntimeException ignored) {
                // the lab's teardown removes the links anyway
            }
        }
    }
}

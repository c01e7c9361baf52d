package dev.gauntlet.sql.adversity;

/**
 * A planned switchover asked of Patroni (its REST API, as {@code patronictl switchover} does): from the leader to
 * {@code to} (a node, {@code sync-standby} or {@code replica}), or to the member Patroni picks. The event lasts until
 * a write is accepted again; the old leader's return as a replica is watched on.
 */
final class Switchover extends ClusterDisruption {

    private final String to;

    /** @param to the candidate as the plan names it; blank: Patroni's choice */
    Switchover(String name, SystemUnderTest system, String to) {
        super(name, system);
        this.to = to;
    }

    @Override
    void fault(Log log) throws Exception {
        String leader = before(log);
        String candidate = to.isBlank() ? null : faults().resolve(to);
        int rewinds = faults().rewinds(leader).size();
        long t0 = System.nanoTime();
        watchGap(t0, log);
        String answer = faults().switchover(leader, candidate);
        settled();
        log.note("switchover from " + leader + (candidate == null ? "" : " to " + candidate) + ": Patroni said '"
                + answer + "'");
        awaitGap(NodeKill.FAILOVER_LIMIT);
        watchRejoin(leader, t0, rewinds, "the switchover", m -> !m.leads(), log);
    }
}

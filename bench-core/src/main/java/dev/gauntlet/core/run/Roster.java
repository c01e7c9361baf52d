package dev.gauntlet.core.run;

import dev.gauntlet.core.result.RoleResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A run's roles and their clients, made from the plan when the run starts: each client with its own script (drawn
 * from a random seeded by the plan's seed and its number) and its start spread over the ramp; a role that waits for
 * another follows it, the others start at once. At the end, what each role did becomes its result.
 */
final class Roster<S> {

    final List<RoleRun<S>> roles = new ArrayList<>();

    /** @param admit takes a client whose role starts: into the workers' queue, or finished when the run is stopping */
    Roster(RunPlan plan, Workload<S> workload, RunStats stats, long startNanos, Consumer<SimulatedClient<S>> admit) {
        int all = plan.clients();
        int n = 0;
        Map<String, RoleRun<S>> byName = new HashMap<>();
        for (Role role : plan.roles()) {
            RoleRun<S> state = new RoleRun<>(role, startNanos, plan.ramp().toNanos(), admit);
            roles.add(state);
            byName.put(role.name(), state);
            for (int i = 0; i < role.clients(); i++, n++) {
                SplittableRandom random = new SplittableRandom(plan.seed() * 1_000_003L + n);
                ClientScript<S> script = workload.client(new ClientId(role.name(), i, role.clients(), n), random);
                SimulatedClient<S> c = new SimulatedClient<>(n, state, script, stats);
                c.notBefore = startNanos + (all == 1 ? 0 : plan.ramp().toNanos() * n / all);
                state.clients.add(c);
            }
            if (role.after() != null) {
                byName.get(role.after()).followers.add(state);
            }
        }
    }

    /** Starts every role that waits for no other. */
    void start() {
        roles.stream().filter(r -> r.role.after() == null).forEach(r -> r.start(0));
    }

    /** What each role issued and left unissued, for the interval accounts. */
    List<RoleCount> counts() {
        return roles.stream().map(r -> r.count).toList();
    }

    /** Finishes the clients of every role that never started: what it waited for never became ready. */
    void finishUnstarted(Consumer<SimulatedClient<S>> finish) {
        for (RoleRun<S> r : roles) {
            if (!r.started) {
                r.clients.forEach(finish);
            }
        }
    }

    /**
     * Open loop: slots that fell due before {@code endAt} but no client of a role took are unissued too (see
     * {@link RoleRun#countUntakenSlots}).
     */
    void countUntakenSlots(long endAt, RunStats stats) {
        roles.forEach(r -> r.countUntakenSlots(endAt, stats));
    }

    /** Each role's result: what it issued over the {@code measured} seconds, and when it started if it waited. */
    List<RoleResult> results(double measured) {
        return roles.stream().map(r -> new RoleResult(r.role.name(), r.role.clients(),
                r.role.rate(), r.count.issuedMeasured, r.count.unissued.sum(),
                measured > 0 ? r.count.issuedMeasured / measured : 0,
                r.role.after(), r.role.after() == null || !r.started ? null : r.startedAt)).toList();
    }
}

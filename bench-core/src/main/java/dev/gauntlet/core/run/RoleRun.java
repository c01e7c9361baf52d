package dev.gauntlet.core.run;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A role while it runs: its clients, its schedule (open loop), when it stops (a phase that leaves it out) and its
 * {@link RoleCount}.
 */
final class RoleRun<S> {
    final Role role;
    /** Open loop: set when the role starts (at the run's start, or when the role it waits for is ready). */
    volatile RateSchedule schedule;
    volatile boolean started;
    private volatile long retiredAt = IntervalClock.NO_DEADLINE;
    /** Seconds into the run when it started. */
    volatile double startedAt;
    final List<SimulatedClient<S>> clients = new ArrayList<>();
    /** The roles that start once every client of this one has finished an operation. */
    final List<RoleRun<S>> followers = new ArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger notReady;
    final RoleCount count;

    private final long runStart;
    private final long rampNanos;
    /** Takes a client whose time has come: into the workers' queue, or finished when the run is stopping. */
    private final Consumer<SimulatedClient<S>> admit;

    RoleRun(Role role, long runStart, long rampNanos, Consumer<SimulatedClient<S>> admit) {
        this.role = role;
        this.runStart = runStart;
        this.rampNanos = rampNanos;
        this.admit = admit;
        this.count = new RoleCount(role.name());
        this.notReady = new java.util.concurrent.atomic.AtomicInteger(role.clients());
    }

    /** Starts the role's clients {@code shift} nanoseconds after the run's start (their ramp shifted with it). */
    void start(long shift) {
        if (role.openLoop()) {
            schedule = new RateSchedule(runStart + rampNanos + shift, role.rate());
        }
        startedAt = shift / 1e9;
        started = true;
        for (SimulatedClient<S> c : clients) {
            c.notBefore += shift;
            c.wakeAt = c.notBefore;
            admit.accept(c);
        }
    }

    /**
     * The role stops issuing at {@code at} (where a phase it is left out of begins): its clients finish as a worker
     * next serves them, and what they were due to run before {@code at} and did not is unissued. It does not come
     * back.
     */
    void retireAt(long at) {
        retiredAt = at;
    }

    /** When the role stopped issuing, or never ({@link IntervalClock#NO_DEADLINE}). */
    long retiredAt() {
        return retiredAt;
    }

    /** A client finished its first operation; the last one to do so starts the roles waiting for this one. */
    void clientReady() {
        if (notReady.decrementAndGet() == 0) {
            long shift = System.nanoTime() - runStart;
            followers.forEach(f -> f.start(shift));
        }
    }

    /**
     * Open loop: slots that fell due before {@code endAt} but no client of the role took (every one was busy) are
     * unissued too. Which operation each would have been is drawn from the role's clients' scripts in turn, as the
     * clients would have drawn them; each waited at least from its slot to the end.
     */
    void countUntakenSlots(long endAt, RunStats stats) {
        if (schedule == null) {
            return;
        }
        long end = Math.min(endAt, retiredAt);
        long due = schedule.dueBefore(end);
        int next = 0;
        for (long k = schedule.taken(); k < due; k++) {
            String op = null;
            for (int tries = 0; tries < clients.size() && op == null; tries++) {
                SimulatedClient<S> c = clients.get(next);
                next = (next + 1) % clients.size();
                op = c.scriptEnded ? null : c.drawOperationName();
            }
            if (op == null) {
                op = stats.firstOperationName();
            }
            stats.stats(op, role.name()).recordUnissued(end - schedule.intendedStart(k));
            count.unissued.increment();
        }
    }
}

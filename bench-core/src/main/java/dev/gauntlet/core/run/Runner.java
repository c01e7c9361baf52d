package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RoleResult;
import dev.gauntlet.core.result.Timing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a workload against a target according to a plan, and measures it.
 *
 * <p>Clients are state machines, not threads: a client waiting for its next intended start (think time,
 * rate limit, retry backoff, reconnect backoff) sits in a delay queue and holds neither a thread nor, in
 * pooled mode, a session. A bounded set of worker threads serves clients whose time has come. Latency is
 * measured from each operation's intended start, so time spent queued behind busy workers, a slow pool or
 * a database outage is part of it; service time is measured from when the operation began executing.
 *
 * <p>The calling thread is the reporter: it closes an interval every {@code reportEvery} (and exactly at
 * the end of warm-up), writes it to the interval log, and tells the listener.
 */
public final class Runner<S> {

    private static final long NO_DEADLINE = IntervalClock.NO_DEADLINE;
    /** How long to wait for operations still in flight when the run ends (a stalled server is cut off by socket timeouts). */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(120);

    private final RunPlan plan;
    private final Workload<S> workload;
    private final Target<S> target;
    private final RunListener listener;
    private final PhaseProbes probes;
    private final Gauges gauges;
    private final RunStats stats;
    private final IntervalLog intervalLog;

    private final DelayQueue<SimulatedClient<S>> queue = new DelayQueue<>();
    private final List<SimulatedClient<S>> clients = new ArrayList<>();
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    private final AtomicReference<String> fatalError = new AtomicReference<>();
    private final CountDownLatch clientsDone;
    private final Object wakeReporter = new Object();
    private final boolean perTransaction;
    /** With more clients than workers, a worker hands its client back after each operation when others are due. */
    private final boolean mustShareWorkers;

    private volatile boolean stopping;
    /** When a stop was requested (Ctrl-C, a fatal error): the run's end for everything measured. */
    private volatile long stopAtNanos = NO_DEADLINE;
    private long startNanos;
    /** The end by the clock; earlier when a last phase ends on its condition. */
    private volatile long endNanos = NO_DEADLINE;
    private IntervalClock clock;
    private final List<RoleRun<S>> roles = new ArrayList<>();

    public Runner(RunPlan plan, Workload<S> workload, Target<S> target, RunListener listener,
                  IntervalLog intervalLog) {
        this(plan, workload, target, listener, intervalLog, List.of());
    }

    /**
     * @param probes phase probes, read at the start and at every phase boundary besides {@link DriverCpu} which every
     *               run has (each phase in the result carries how much they rose); and gauge probes, sampled every
     *               interval into the run's gauges
     */
    public Runner(RunPlan plan, Workload<S> workload, Target<S> target, RunListener listener,
                  IntervalLog intervalLog, List<? extends Probe> probes) {
        List<PhaseProbe> phaseProbes = new ArrayList<>(List.of(new DriverCpu()));
        List<GaugeProbe> gaugeProbes = new ArrayList<>();
        for (Probe p : probes) {
            if (p instanceof PhaseProbe phase) {
                phaseProbes.add(phase);
            }
            if (p instanceof GaugeProbe gauge) {
                gaugeProbes.add(gauge);
            }
        }
        this.probes = new PhaseProbes(phaseProbes);
        this.gauges = new Gauges(gaugeProbes);
        this.stats = new RunStats(workload.operationNames(), Math.min(plan.workers(), plan.clients()), gauges);
        this.plan = plan;
        this.workload = workload;
        this.target = target;
        this.listener = listener;
        this.intervalLog = intervalLog;
        this.clientsDone = new CountDownLatch(plan.clients());
        this.perTransaction = target.sessionPerTransaction();
        this.mustShareWorkers = plan.clients() > plan.workers();
    }

    /** Asks the run to end early (Ctrl-C); operations in flight finish and are recorded. Idempotent. */
    public void requestStop(String reason) {
        if (stopReason.compareAndSet(null, reason)) {
            stopAtNanos = System.nanoTime();
        }
        stopping = true;
        synchronized (wakeReporter) {
            wakeReporter.notifyAll();
        }
    }

    public RunRecord run() throws InterruptedException {
        Map<String, Long> probesAtStart = probes.read();
        Instant startedAt = Instant.now();
        long startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        List<PhasePlan> timeline = plan.timeline();
        clock = new IntervalClock(startNanos, plan.reportEvery().toNanos(), timeline);
        endNanos = clock.end();
        int all = plan.clients();
        Map<String, RoleRun<S>> byName = new HashMap<>();
        for (Role role : plan.roles()) {
            RoleRun<S> state = new RoleRun<>(role, startNanos, plan.ramp().toNanos(), this::admit);
            roles.add(state);
            byName.put(role.name(), state);
            for (int i = 0; i < role.clients(); i++) {
                int n = clients.size();
                SplittableRandom random = new SplittableRandom(plan.seed() * 1_000_003L + n);
                ClientScript<S> script = workload.client(new ClientId(role.name(), i, role.clients(), n), random);
                SimulatedClient<S> c = new SimulatedClient<>(n, state, script, stats);
                c.notBefore = startNanos + (all == 1 ? 0 : plan.ramp().toNanos() * n / all);
                state.clients.add(c);
                clients.add(c);
            }
            if (role.after() == null) {
                state.start(0);
            } else {
                byName.get(role.after()).followers.add(state);
            }
        }
        scheduleRetirements(timeline);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < Math.min(plan.workers(), plan.clients()); i++) {
            int stripe = i;
            Thread t = new Thread(() -> work(stripe), "gauntlet-worker-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }

        IntervalAccounts accounts = new IntervalAccounts(stats, gauges, probes, probesAtStart,
                roles.stream().map(r -> r.count).toList(), listener, intervalLog, clock, startMillis, timeline,
                this::fail);
        DisruptionSchedule disruptions = new DisruptionSchedule(plan.disruptions(), clock, () -> stopping);
        disruptions.start();
        gauges.start(clock, plan.reportEvery().toNanos(), () -> stopping);
        closeIntervalsUntilTheEnd(accounts);
        // Measured time ends here, at the deadline or the stop, not after the drain below.
        long endAt = Math.min(System.nanoTime(), Math.min(endNanos, stopAtNanos));

        // Let operations in flight finish (they are counted, with their whole latency), then end the clients
        // that were waiting; what was due and never ran is counted as unissued.
        stopping = true;
        wakeIdleWorkers(workers.size());
        long drainDeadline = System.nanoTime() + DRAIN_NANOS;
        for (Thread t : workers) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(drainDeadline - System.nanoTime())));
        }
        long unfinished = workers.stream().filter(Thread::isAlive).count();
        for (Object waiting : queue.toArray()) {
            @SuppressWarnings("unchecked")
            SimulatedClient<S> c = (SimulatedClient<S>) waiting;
            queue.remove(c);
            finish(c);
        }
        for (RoleRun<S> r : roles) {
            if (!r.started) {
                r.clients.forEach(this::finish); // what it waited for never became ready
            }
        }
        countUntakenSlots(endAt);
        List<DisruptionRecord> disrupted = disruptions.finish();
        gauges.stop();
        accounts.close(endAt);
        Instant endedAt = Instant.now();
        stopReason.compareAndSet(null, plan.duration() != null ? "duration" : "iterations");
        Map<String, Timing> observed = new LinkedHashMap<>();
        accounts.observationTotals.forEach((name, h) -> observed.put(name, Timing.of(h)));
        observed.values().removeIf(java.util.Objects::isNull);
        double measured = accounts.measuredSeconds();
        List<RoleResult> roleResults = roles.stream().map(r -> new RoleResult(r.role.name(), r.role.clients(),
                r.role.rate(), r.count.issuedMeasured, r.count.unissued.sum(),
                measured > 0 ? r.count.issuedMeasured / measured : 0,
                r.role.after(), r.role.after() == null || !r.started ? null : r.startedAt)).toList();
        return new RunRecord(startedAt, endedAt, measured, accounts.totals(),
                accounts.intervals, accounts.phases, stats.errors(), stopReason.get(), fatalError.get(), unfinished,
                observed, accounts.gaugeTotals, roleResults, disrupted);
    }

    /**
     * The calling thread closes intervals at the clock's ticks and phase boundaries; returns when the run should end:
     * deadline reached, every client done, or a stop was requested (the final interval is closed after operations in
     * flight drain).
     */
    private void closeIntervalsUntilTheEnd(IntervalAccounts accounts) throws InterruptedException {
        List<PhasePlan> timeline = plan.timeline();
        long nextAsk = startNanos;
        while (clientsDone.getCount() > 0 && !stopping) {
            long now = System.nanoTime();
            if (now >= endNanos) {
                return;
            }
            int phase = accounts.phaseIndex;
            Condition until = timeline.get(phase).until();
            if (until != null && now >= nextAsk) {
                nextAsk = now + TimeUnit.MILLISECONDS.toNanos(Condition.POLL_MILLIS);
                if (holds(until)) {
                    clock.endPhaseAt(phase, now);
                    endNanos = clock.end();
                    scheduleRetirements(timeline);
                    if (phase == timeline.size() - 1) {
                        return; // the final interval is closed after operations in flight drain
                    }
                }
            }
            long next = until == null ? accounts.nextClose() : Math.min(accounts.nextClose(), nextAsk);
            if (now < next) {
                synchronized (wakeReporter) {
                    if (clientsDone.getCount() > 0 && !stopping) {
                        wakeReporter.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - now)));
                    }
                }
                continue;
            }
            accounts.tick(now);
        }
    }

    /**
     * A role stops issuing where the first phase that leaves it out begins, by the clock (workers compare it with
     * their own clock reads, so the boundary holds however late this thread gets to close the interval); again after
     * a phase ends early on its condition.
     */
    private void scheduleRetirements(List<PhasePlan> timeline) {
        for (RoleRun<S> r : roles) {
            for (int i = 0; i < timeline.size(); i++) {
                if (!timeline.get(i).runs(r.role.name())) {
                    r.retireAt(i == 0 ? startNanos : clock.phaseEnd(i - 1));
                    break;
                }
            }
        }
    }

    /** Whether a phase's condition holds; one that throws does not. */
    private static boolean holds(Condition until) {
        try {
            return until.holds();
        } catch (Exception e) {
            return false;
        }
    }

    /** Idle workers wait in the queue; a finished client per worker, due now, sends each back to see the stop. */
    private void wakeIdleWorkers(int workers) {
        for (int i = 0; i < workers; i++) {
            SimulatedClient<S> wakeUp = new SimulatedClient<>(-1, null, () -> null, stats);
            wakeUp.done = true;
            queue.add(wakeUp);
        }
    }

    /**
     * Open loop: slots that fell due before the end but no client of a role took are unissued too (see
     * {@link RoleRun#countUntakenSlots}); a run of so many iterations that was not stopped has no end to fall due by.
     */
    private void countUntakenSlots(long endAt) {
        if (plan.duration() == null && stopAtNanos == NO_DEADLINE) {
            return;
        }
        roles.forEach(r -> r.countUntakenSlots(endAt, stats));
    }

    /** A client whose role starts: into the workers' queue, or finished when the run is stopping. */
    private void admit(SimulatedClient<S> c) {
        if (stopping) {
            finish(c);
        } else {
            queue.add(c);
        }
    }

    /** The end of the run as far as anything is measured: the deadline, or when a stop was requested. */
    private long runEnd() {
        return Math.min(endNanos, stopAtNanos);
    }

    // ---------------------------------------------------------------- clients

    /** A worker: serves clients whose time has come; {@code stripe} is its own slot in the latency recorders. */
    private void work(int stripe) {
        try {
            while (!stopping) {
                SimulatedClient<S> c = queue.poll(50, TimeUnit.MILLISECONDS);
                if (c != null) {
                    serve(c, stripe);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            fail("internal error in the runner: " + t);
        }
    }

    /**
     * Runs the client's operations back to back until it must wait, or until another client is due and there are
     * more clients than workers; then puts it back in the queue. One clock read per operation: the end of one
     * operation is the start of the next when nothing lies between them.
     */
    private void serve(SimulatedClient<S> c, int stripe) {
        long now = System.nanoTime();
        while (true) {
            if (stopping || now >= endNanos || now >= c.role.retiredAt()) {
                finish(c);
                return;
            }
            if (c.pending == null && !nextOperation(c, now)) {
                finish(c);
                return;
            }
            if (c.intended > now) {
                park(c, c.intended);
                return;
            }
            if (!perTransaction && c.session == null) {
                if (!connect(c)) {
                    return;
                }
                now = System.nanoTime();
                if (stopping || now >= endNanos) {
                    continue; // reopened after the deadline: nothing starts now (it would count as measured)
                }
            }
            now = attempt(c, now, stripe);
            if (c.wakeAt > now) {
                park(c, c.wakeAt);
                return;
            }
            if (mustShareWorkers && anotherClientIsDue(now)) {
                park(c, now);
                return;
            }
        }
    }

    private boolean anotherClientIsDue(long now) {
        SimulatedClient<S> head = queue.peek();
        return head != null && head.wakeAt <= now;
    }

    private boolean nextOperation(SimulatedClient<S> c, long now) {
        if (plan.iterations() > 0 && c.completed >= plan.iterations()) {
            return false;
        }
        Step<S> step;
        try {
            step = c.script.next();
        } catch (RuntimeException e) {
            fail("the workload failed to produce its next operation: " + e);
            return false;
        }
        if (step == null) {
            c.scriptEnded = true;
            return false;
        }
        c.pending = step.operation();
        c.attempt = 0;
        if (c.role.schedule != null) {
            c.intended = Math.max(c.role.schedule.next(), c.notBefore);
        } else {
            long base = c.completed == 0 && c.lastEnd == 0 ? c.notBefore : c.lastEnd;
            c.intended = base + step.pauseNanos();
        }
        c.firstIntended = c.intended;
        c.wakeAt = 0;
        return true;
    }

    /**
     * Opens the client's own session (direct mode). A failed attempt is not a failed operation: the pending
     * operation waits, its latency growing from its intended start, while the client retries with backoff; every
     * attempt after a client's first counts as a reconnect.
     */
    private boolean connect(SimulatedClient<S> c) {
        OperationStats s = c.statsOf(c.pending);
        if (c.opens++ > 0) {
            s.countReconnect();
        }
        try {
            c.session = target.open();
            c.reconnects = 0;
            if (c.opens > 1) {
                stats.countFailure(dev.gauntlet.core.result.Interval.REOPENED);
            }
            return true;
        } catch (Throwable e) {
            Failure f = target.classify(e);
            long now = System.nanoTime();
            if (f.kind() == Failure.Kind.FATAL) {
                stats.countError(s, f);
                ended(c, s, now);
                fail(f.message());
                finish(c);
                return false;
            }
            stats.countFailedReconnect(f);
            park(c, now + Backoff.RECONNECT.pauseNanos(++c.reconnects));
            return false;
        }
    }

    /**
     * One attempt of the pending operation, starting at {@code now}; on return the client either completed it or
     * set {@code wakeAt}. Returns the time the attempt ended.
     */
    private long attempt(SimulatedClient<S> c, long now, int stripe) {
        Operation<S> op = c.pending;
        OperationStats s = c.statsOf(op);
        S session = c.session;
        long start = now;
        if (perTransaction) {
            try {
                session = target.open();
            } catch (Throwable e) {
                long failedAt = System.nanoTime();
                s.recordPoolWait(failedAt - now);
                onFailure(c, s, null, target.classify(e), failedAt);
                return failedAt;
            }
            start = System.nanoTime();
            s.recordPoolWait(start - now);
            if (stopping || start >= endNanos) {
                target.release(session, false); // the pool answered after the deadline: nothing starts now
                c.wakeAt = 0;
                return start;
            }
        }
        if (c.attempt == 0) {
            c.firstStart = start;
        }
        c.observed.begin(c.firstIntended);
        try {
            target.transact(session, op, c.observed);
        } catch (Throwable e) {
            long failedAt = System.nanoTime();
            onFailure(c, s, session, target.classify(e), failedAt);
            return failedAt;
        }
        long end = System.nanoTime();
        s.recordSuccess(end - c.firstIntended, end - c.firstStart, stripe);
        if (!c.observed.isEmpty()) {
            stats.record(c.observed, s, end, stripe);
        }
        c.role.count.issued.increment();
        if (perTransaction) {
            target.release(session, false);
            c.reconnects = 0;
        }
        if (++c.completed == 1) {
            c.role.clientReady();
        }
        c.pending = null;
        c.lastEnd = end;
        c.wakeAt = 0;
        return end;
    }

    /** The error policy: what each kind of failure means for the client and the run. */
    private void onFailure(SimulatedClient<S> c, OperationStats s, S session, Failure f, long now) {
        switch (f.kind()) {
            case RETRY -> {
                if (c.attempt + 1 < plan.maxAttempts()) {
                    stats.countRetry(s, f);
                    c.attempt++;
                    releaseIfPooled(session, false);
                    c.wakeAt = now + Backoff.RETRY.pauseNanos(c.attempt);
                    c.intended = c.wakeAt;
                    return;
                }
                stats.countError(s, new Failure(f.kind(), f.code(),
                        "gave up after " + plan.maxAttempts() + " attempts: " + f.message()));
                releaseIfPooled(session, false);
            }
            case CONNECTION, AMBIGUOUS_COMMIT -> {
                if (f.kind() == Failure.Kind.AMBIGUOUS_COMMIT) {
                    c.observed.commitUnknown();
                }
                stats.countError(s, f);
                if (session != null) {
                    target.release(session, true);
                }
                if (!perTransaction) {
                    c.session = null;
                }
                ended(c, s, now);
                // Reconnect after a pause rather than hammering a server that is restarting.
                c.wakeAt = now + Backoff.RECONNECT.pauseNanos(++c.reconnects);
                return;
            }
            case TIMEOUT -> {
                stats.countError(s, f);
                releaseIfPooled(session, false);
            }
            case FATAL -> {
                stats.countError(s, f);
                releaseIfPooled(session, true);
                fail(c.pending.name() + ": " + f.message());
            }
        }
        ended(c, s, now);
        c.wakeAt = 0;
    }

    /** The pending operation ended in failure at {@code now}: its latency goes into the failed histogram. */
    private void ended(SimulatedClient<S> c, OperationStats s, long now) {
        s.recordFailure(now - c.firstIntended);
        c.role.count.issued.increment();
        c.pending = null;
        if (++c.completed == 1) {
            c.role.clientReady();
        }
        c.lastEnd = now;
    }

    private void releaseIfPooled(S session, boolean broken) {
        if (session != null && perTransaction) {
            target.release(session, broken);
        }
    }

    private void fail(String message) {
        fatalError.compareAndSet(null, message);
        requestStop("fatal error");
    }

    private void park(SimulatedClient<S> c, long at) {
        if (stopping) {
            finish(c);
            return;
        }
        c.wakeAt = at;
        queue.add(c);
    }

    /** The client is done; an operation it was due to run before the end and never completed is unissued. */
    private void finish(SimulatedClient<S> c) {
        synchronized (c) {
            if (c.done) {
                return;
            }
            c.done = true;
        }
        long end = Math.min(runEnd(), c.role.retiredAt());
        if (c.pending != null && c.firstIntended < end) {
            c.statsOf(c.pending).recordUnissued(end - c.firstIntended);
            c.role.count.unissued.increment();
        }
        if (c.session != null) {
            target.release(c.session, false);
            c.session = null;
        }
        clientsDone.countDown();
        if (clientsDone.getCount() == 0) {
            synchronized (wakeReporter) {
                wakeReporter.notifyAll();
            }
        }
    }

}

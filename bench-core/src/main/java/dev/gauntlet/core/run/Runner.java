package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.DisruptionRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs a workload against a target according to a plan, and measures it.
 *
 * <p>Clients are state machines, not threads: a client waiting for its next intended start (think time,
 * rate limit, retry backoff, reconnect backoff) sits in a delay queue and holds neither a thread nor, in
 * pooled mode, a session. A bounded set of worker threads serves clients whose time has come; when there is a
 * worker for every client, a client waits on the thread of the worker that served it instead. Latency is
 * measured from each operation's intended start, so time spent queued behind busy workers, a slow pool or
 * a database outage is part of it; service time is measured from when the operation began executing.
 *
 * <p>The calling thread is the reporter: it closes an interval every {@code reportEvery} (and exactly at
 * the end of warm-up), writes it to the interval log, and tells the listener.
 */
public final class Runner<S> {

    private static final long NO_DEADLINE = IntervalClock.NO_DEADLINE;

    private final RunPlan plan;
    private final Workload<S> workload;
    private final Target<S> target;
    private final RunListener listener;
    private final PhaseProbes probes;
    private final List<? extends Probe> given;
    /** Whether the probes outlive the run, closed by whoever made them ({@link #leavingProbesOpen}). */
    private boolean leaveProbesOpen;
    private final Gauges gauges;
    private final RunStats stats;
    private final IntervalLog intervalLog;

    private final ClientQueue<S> queue = new ClientQueue<>();
    private final RunStop stop;
    private final boolean perTransaction;
    /** The workload's log of each operation's end, or null. */
    private final OperationLog operationLog;
    /** With more clients than workers, a worker hands its client back after each operation when others are due. */
    private final boolean mustShareWorkers;

    /** When intervals close and the run ends: the end by the clock; earlier when a last phase ends on its condition. */
    private IntervalClock clock;

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
        this.probes = PhaseProbes.of(probes);
        this.given = List.copyOf(probes);
        this.gauges = Gauges.of(probes);
        this.stats = new RunStats(workload.operationNames(), Math.min(plan.workers(), plan.clients()), gauges);
        this.plan = plan;
        this.workload = workload;
        this.target = target;
        this.listener = listener;
        this.intervalLog = intervalLog;
        this.stop = new RunStop(plan.clients());
        this.perTransaction = target.sessionPerTransaction();
        this.operationLog = workload.operationLog();
        this.mustShareWorkers = plan.clients() > plan.workers();
    }

    /**
     * Leaves the probes open when the run ends, for a run that follows with the same ones (the priming apart of
     * bench-sql, whose measured run must not open new connections: a new connection's TLS handshake runs through the
     * workload's compiled socket code, which is then compiled again in the measured minute).
     */
    public Runner<S> leavingProbesOpen() {
        leaveProbesOpen = true;
        return this;
    }

    /** Asks the run to end early (Ctrl-C); operations in flight finish and are recorded. Idempotent. */
    public void requestStop(String reason) {
        stop.request(reason);
    }

    public RunRecord run() throws InterruptedException {
        Map<String, Long> probesAtStart = probes.read();
        Instant startedAt = Instant.now();
        long startMillis = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        List<PhasePlan> timeline = plan.timeline();
        clock = new IntervalClock(startNanos, plan.reportEvery().toNanos(), timeline);
        Roster<S> roster = new Roster<>(plan, workload, stats, startNanos, this::admit);
        roster.start();
        PhaseTimeline phases = new PhaseTimeline(timeline, clock, roster.roles, stop);
        phases.scheduleRetirements();
        WorkerThreads workers = new WorkerThreads(Math.min(plan.workers(), plan.clients()),
                plan.threads().resolve(plan.clients()), this::work);

        IntervalAccounts accounts = new IntervalAccounts(stats, gauges, probes, probesAtStart, roster.counts(),
                listener, intervalLog, clock, startMillis, timeline, stop::fail);
        DisruptionSchedule disruptions = new DisruptionSchedule(plan.disruptions(), clock, stop::stopping);
        disruptions.start();
        gauges.start(clock, stop::stopping);
        phases.closeIntervalsUntilTheEnd(accounts);
        // Measured time ends here, at the deadline or the stop, not after the drain below.
        long endAt = Math.min(System.nanoTime(), runEnd());

        // Let operations in flight finish (they are counted, with their whole latency), then end the clients
        // that were waiting; what was due and never ran is counted as unissued.
        stop.end();
        workers.wakeAll();
        queue.wakeIdleWorkers(workers.count(), stats);
        long unfinished = workers.drain();
        queue.finishWaiting(this::finish);
        roster.finishUnstarted(this::finish);
        // A run of so many iterations that was not stopped has no end for slots to fall due by.
        if (plan.duration() != null || stop.requestedAt() != NO_DEADLINE) {
            roster.countUntakenSlots(endAt, stats);
        }
        List<DisruptionRecord> disrupted = disruptions.finish();
        gauges.stop();
        if (!leaveProbesOpen) {
            given.forEach(Runner::closeQuietly);
        }
        if (operationLog != null) {
            operationLog.close();
        }
        accounts.close(endAt);
        Instant endedAt = Instant.now();
        String stopReason = stop.reason(plan.duration() != null ? "duration" : "iterations");
        double measured = accounts.measuredSeconds();
        return new RunRecord(startedAt, endedAt, measured, accounts.totals(), accounts.intervals.intervals(),
                accounts.phases, stats.errors(), stopReason, stop.fatalError(), unfinished, accounts.observations(),
                accounts.gaugeTotals, roster.results(measured), disrupted, phases.mostScheduleLagNanos());
    }

    /** Closing is best effort: the run's figures are already taken. */
    private static void closeQuietly(Probe p) {
        try {
            p.close();
        } catch (RuntimeException e) {
            // a probe that cannot let go of what it holds does not fail the run
        }
    }

    /** A client whose role starts: into the workers' queue, or finished when the run is stopping. */
    private void admit(SimulatedClient<S> c) {
        if (stop.stopping()) {
            finish(c);
        } else {
            queue.add(c);
        }
    }

    /** The end of the run as far as anything is measured: the deadline, or when a stop was requested. */
    private long runEnd() {
        return Math.min(clock.end(), stop.requestedAt());
    }

    // ---------------------------------------------------------------- clients

    /** A worker: serves clients whose time has come; {@code stripe} is its own slot in the latency recorders. */
    private void work(int stripe) {
        try {
            while (!stop.stopping()) {
                SimulatedClient<S> c = queue.poll(50, TimeUnit.MILLISECONDS);
                if (c != null) {
                    serve(c, stripe);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            stop.fail("internal error in the runner: " + t);
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
            if (stop.stopping() || now >= clock.end() || now >= c.role.retiredAt()) {
                finish(c);
                return;
            }
            if (c.pending == null && !nextOperation(c, now)) {
                finish(c);
                return;
            }
            if (c.intended > now) {
                if (!mustShareWorkers) {
                    now = waitOnThisWorker(c.intended);
                    continue;
                }
                park(c, c.intended);
                return;
            }
            if (!perTransaction && c.session == null) {
                if (!connect(c)) {
                    return;
                }
                now = System.nanoTime();
                if (stop.stopping() || now >= clock.end()) {
                    continue; // reopened after the deadline: nothing starts now (it would count as measured)
                }
            }
            now = attempt(c, now, stripe);
            if (c.wakeAt > now) {
                if (!mustShareWorkers) {
                    now = waitOnThisWorker(c.wakeAt);
                    continue;
                }
                park(c, c.wakeAt);
                return;
            }
            if (mustShareWorkers && queue.anotherClientIsDue(now)) {
                park(c, now);
                return;
            }
        }
    }

    /**
     * With a worker for every client, a client waits for its time on its worker's thread, not in the queue: each wait
     * in the queue was a hand-off between threads (the one waiting for the queue's head wakes, takes the client and
     * wakes the next), a sixth of the workers' CPU in bench-trainevents. Ends early when the run stops
     * ({@link WorkerThreads#wakeAll}). Returns the time it ended.
     */
    private long waitOnThisWorker(long until) {
        long now = System.nanoTime();
        while (now < until && !stop.stopping() && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(this, until - now);
            now = System.nanoTime();
        }
        return now;
    }

    private boolean nextOperation(SimulatedClient<S> c, long now) {
        if (plan.iterations() > 0 && c.completed >= plan.iterations()) {
            return false;
        }
        Step<S> step;
        try {
            step = c.script.next();
        } catch (RuntimeException e) {
            stop.fail("the workload failed to produce its next operation: " + e);
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
                ended(c, s, f, now);
                stop.fail(f.message());
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
            if (stop.stopping() || start >= clock.end()) {
                target.release(session, false); // the pool answered after the deadline: nothing starts now
                c.wakeAt = 0;
                return start;
            }
        }
        if (c.attempt == 0) {
            c.firstStart = start;
        }
        c.observed.begin(c.firstIntended, c.firstStart);
        try {
            target.transact(session, op, c.observed);
        } catch (Throwable e) {
            long failedAt = System.nanoTime();
            onFailure(c, s, session, target.classify(e), failedAt);
            return failedAt;
        }
        long end = System.nanoTime();
        s.recordSuccess(end - c.firstIntended, end - c.firstStart, stripe);
        if (operationLog != null) {
            operationLog.ended(c.index, op.name(), c.firstIntended, c.firstStart, end, null, c.attempt + 1);
        }
        if (!c.observed.isEmpty()) {
            stats.record(c.observed, s, end, stripe);
        }
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
                ended(c, s, f, now);
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
                stop.fail(c.pending.name() + ": " + f.message());
            }
        }
        ended(c, s, f, now);
        c.wakeAt = 0;
    }

    /** The pending operation ended in failure at {@code now}: its latency goes into the failed histogram. */
    private void ended(SimulatedClient<S> c, OperationStats s, Failure f, long now) {
        s.recordFailure(now - c.firstIntended);
        if (operationLog != null) {
            operationLog.ended(c.index, c.pending.name(), c.firstIntended, c.firstStart, now, f, c.attempt + 1);
        }
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

    private void park(SimulatedClient<S> c, long at) {
        if (stop.stopping()) {
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
        stop.clientDone();
    }

}

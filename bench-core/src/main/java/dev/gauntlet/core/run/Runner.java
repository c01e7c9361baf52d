package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.ErrorTally;
import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RoleResult;
import dev.gauntlet.core.result.Timing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

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

    private static final long NO_DEADLINE = Long.MAX_VALUE;
    /** How long to wait for operations still in flight when the run ends (a stalled server is cut off by socket timeouts). */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(120);

    private final RunPlan plan;
    private final Workload<S> workload;
    private final Target<S> target;
    private final RunListener listener;
    private final List<PhaseProbe> probes;
    /** Gauge probes of levels, read by a thread of their own shortly before each interval closes. */
    private final List<GaugeProbe> gaugeProbes = new ArrayList<>();
    /** Gauge probes of rates (counts since the previous read), read by the reporter as each interval closes. */
    private final List<GaugeProbe> rateProbes = new ArrayList<>();
    private final IntervalLog intervalLog;

    private final Map<String, OperationStats> stats = new ConcurrentHashMap<>();
    /** Latencies operations observed (end to end, ...) and gauges they set, by name; see {@link Attempt}. */
    private final Map<String, LatencyRecorder> observations = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.AtomicLong> gauges = new ConcurrentHashMap<>();
    /** Each gauge's contract, as its probe or the operation that set it declared. */
    private final Map<String, GaugeInfo> gaugeInfo = new ConcurrentHashMap<>();
    /**
     * The role whose clients run each operation, or {@link #SHARED_OPERATION} when clients of several do: a role's
     * issued count per interval is then its operations' counts in the same snapshots, exact by construction.
     */
    private final Map<String, String> roleOfOperation = new ConcurrentHashMap<>();
    private static final String SHARED_OPERATION = "";
    /** Replaced when the warm-up ends, so results count only the measured phase. */
    private volatile ErrorTally errors = new ErrorTally();
    private volatile ErrorTally retried = new ErrorTally();
    /** Every failure of the whole run by class (retried attempts and failed reconnects included), never reset. */
    private final Map<String, java.util.concurrent.atomic.LongAdder> failuresByClass = new ConcurrentHashMap<>();
    private final DelayQueue<Client> queue = new DelayQueue<>();
    private final List<Client> clients = new ArrayList<>();
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
    private long endNanos = NO_DEADLINE;
    private final List<RoleState> roles = new ArrayList<>();

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
        this.probes = new ArrayList<>(List.of(new DriverCpu()));
        for (Probe p : probes) {
            if (p instanceof PhaseProbe phase) {
                this.probes.add(phase);
            }
            if (p instanceof GaugeProbe gauge) {
                (gauge.kind() == GaugeInfo.Kind.RATE ? rateProbes : gaugeProbes).add(gauge);
            }
        }
        this.plan = plan;
        this.workload = workload;
        this.target = target;
        this.listener = listener;
        this.intervalLog = intervalLog;
        this.clientsDone = new CountDownLatch(plan.clients());
        this.perTransaction = target.sessionPerTransaction();
        this.mustShareWorkers = plan.clients() > plan.workers();
        for (String name : workload.operationNames()) {
            stats.put(name, newStats(name));
        }
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
        Map<String, Long> probesAtStart = readProbes();
        Instant startedAt = Instant.now();
        long startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        List<PhasePlan> timeline = plan.timeline();
        long[] phaseEnds = new long[timeline.size()];
        long boundary = startNanos;
        for (int i = 0; i < timeline.size(); i++) {
            Duration length = timeline.get(i).length();
            boundary = length == null ? NO_DEADLINE : boundary + length.toNanos();
            phaseEnds[i] = boundary;
        }
        endNanos = phaseEnds[phaseEnds.length - 1];
        int all = plan.clients();
        Map<String, RoleState> byName = new HashMap<>();
        for (Role role : plan.roles()) {
            RoleState state = new RoleState(role);
            roles.add(state);
            byName.put(role.name(), state);
            for (int i = 0; i < role.clients(); i++) {
                int n = clients.size();
                SplittableRandom random = new SplittableRandom(plan.seed() * 1_000_003L + n);
                Client c = new Client(n, state, workload.client(new ClientId(role.name(), i, role.clients(), n), random));
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
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < Math.min(plan.workers(), plan.clients()); i++) {
            int stripe = i;
            Thread t = new Thread(() -> work(stripe), "gauntlet-worker-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }

        Reporter reporter = new Reporter(startMillis, timeline, phaseEnds, probesAtStart);
        DisruptionSchedule disruptions = new DisruptionSchedule(plan.disruptions(), startNanos);
        disruptions.start();
        Thread sampler = startSampling(phaseEnds);
        reporter.loop();
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
            Client c = (Client) waiting;
            queue.remove(c);
            finish(c);
        }
        for (RoleState r : roles) {
            if (!r.started) {
                r.clients.forEach(this::finish); // what it waited for never became ready
            }
        }
        countUntakenSlots(endAt);
        List<DisruptionRecord> disrupted = disruptions.finish();
        stopSampling(sampler);
        reporter.close(endAt);
        Instant endedAt = Instant.now();
        stopReason.compareAndSet(null, plan.duration() != null ? "duration" : "iterations");
        Map<String, Timing> observed = new LinkedHashMap<>();
        reporter.observationTotals.forEach((name, h) -> observed.put(name, Timing.of(h)));
        observed.values().removeIf(java.util.Objects::isNull);
        double measured = reporter.measuredSeconds();
        List<RoleResult> roleResults = roles.stream().map(r -> new RoleResult(r.role.name(), r.role.clients(),
                r.role.rate(), r.issuedMeasured, r.unissued.sum(), measured > 0 ? r.issuedMeasured / measured : 0,
                r.role.after(), r.role.after() == null || !r.started ? null : r.startedAt)).toList();
        return new RunRecord(startedAt, endedAt, measured, reporter.totals(),
                reporter.intervals, reporter.phases, allErrors(), stopReason.get(), fatalError.get(), unfinished,
                observed, reporter.gaugeTotals, roleResults, disrupted);
    }

    /** Idle workers wait in the queue; a finished client per worker, due now, sends each back to see the stop. */
    private void wakeIdleWorkers(int workers) {
        for (int i = 0; i < workers; i++) {
            Client wakeUp = new Client(-1, null, () -> null);
            wakeUp.done = true;
            queue.add(wakeUp);
        }
    }

    /** Every probe's reading now; a probe that throws counts as unreadable, never as a failed run. */
    private Map<String, Long> readProbes() {
        Map<String, Long> readings = new LinkedHashMap<>();
        for (PhaseProbe p : probes) {
            Long value;
            try {
                value = p.read();
            } catch (RuntimeException e) {
                value = null;
            }
            readings.put(p.name(), value);
        }
        return readings;
    }

    /**
     * Reads the level gauge probes at the run's start and then shortly before each interval closes (a tenth of the
     * interval, at most 250 ms, ahead): before each regular tick, each phase boundary and the end, so each interval
     * shows figures from its own end. Rate probes are read by the reporter instead ({@link Reporter#closeInterval}).
     */
    private Thread startSampling(long[] phaseEnds) {
        rateProbes.forEach(p -> sample(p, new java.util.HashSet<>())); // counting starts with the run
        if (gaugeProbes.isEmpty()) {
            return null;
        }
        long every = plan.reportEvery().toNanos();
        long lead = Math.min(every / 10, TimeUnit.MILLISECONDS.toNanos(250));
        Thread t = new Thread(() -> {
            Map<GaugeProbe, java.util.Set<String>> lastNames = new java.util.HashMap<>();
            try {
                for (long close = startNanos; !stopping; close = nextClose(close, every, phaseEnds)) {
                    for (GaugeProbe p : gaugeProbes) {
                        sample(p, lastNames.computeIfAbsent(p, k -> new java.util.HashSet<>()));
                    }
                    long next = nextClose(close, every, phaseEnds) - lead;
                    for (long left = next - System.nanoTime(); left > 0 && !stopping; left = next - System.nanoTime()) {
                        TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gauntlet-gauges");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The first interval close after {@code after}: the next regular tick or phase boundary (the end is one). */
    private long nextClose(long after, long every, long[] phaseEnds) {
        long close = startNanos + ((after - startNanos) / every + 1) * every;
        for (long boundary : phaseEnds) {
            if (boundary > after && boundary < close) {
                close = boundary;
            }
        }
        return close;
    }

    /** Reads one probe into the run's gauges; a failed read removes its gauges (a gap, not a stale value). */
    private void sample(GaugeProbe p, java.util.Set<String> names) {
        try {
            Map<String, Long> values = p.sample();
            values.forEach((name, v) -> gauge(name, new GaugeInfo(p.kind(), p.merge(name))).set(v));
            names.addAll(values.keySet());
        } catch (Exception | LinkageError e) {
            names.forEach(gauges::remove);
        }
    }

    private void stopSampling(Thread sampler) throws InterruptedException {
        if (sampler == null) {
            return;
        }
        sampler.interrupt();
        sampler.join(TimeUnit.SECONDS.toMillis(10));
        java.util.stream.Stream.concat(gaugeProbes.stream(), rateProbes.stream()).forEach(p -> {
            try {
                p.close();
            } catch (RuntimeException e) {
                // closing is best effort: the run's figures are already taken
            }
        });
    }

    /**
     * Starts and stops the plan's disruptions at their times, each on a thread of its own (one that runs to
     * completion must not hold up the next), and records what each did. At the end of the run it switches off any
     * still on and records the ones that never started.
     */
    private final class DisruptionSchedule {
        private final List<Scheduled> scheduled = new ArrayList<>();

        /** One planned disruption and what it did; fields written by its thread, read after it is joined. */
        private final class Scheduled implements Runnable {
            final DisruptionPlan plan;
            final long startAt;
            final List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());
            volatile Double started;
            volatile Double ended;
            volatile boolean on;
            volatile boolean failed;
            Thread thread;

            Scheduled(DisruptionPlan plan, long runStart) {
                this.plan = plan;
                this.startAt = runStart + plan.at().toNanos();
            }

            @Override
            public void run() {
                try {
                    if (!sleepUntil(startAt)) {
                        return;
                    }
                    started = seconds(System.nanoTime());
                    on = true;
                    plan.disruption().start(notes::add);
                    if (plan.length() == null) {
                        ended = seconds(System.nanoTime());
                        on = false;
                        return;
                    }
                    sleepUntil(startAt + plan.length().toNanos());
                    switchOff();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception | LinkageError e) {
                    failed = true;
                    notes.add(plan.disruption().name() + " failed: " + e);
                    switchOff();
                }
            }

            /** Undoes a disruption that is on; safe to call twice. */
            synchronized void switchOff() {
                if (!on) {
                    return;
                }
                on = false;
                try {
                    plan.disruption().stop(notes::add);
                } catch (Exception | LinkageError e) {
                    failed = true;
                    notes.add("stopping " + plan.disruption().name() + " failed: " + e);
                }
                ended = seconds(System.nanoTime());
            }

            DisruptionRecord record() {
                Double plannedEnd = plan.length() == null ? null
                        : (plan.at().toNanos() + plan.length().toNanos()) / 1e9;
                String outcome = started == null ? DisruptionRecord.NOT_STARTED
                        : failed ? DisruptionRecord.FAILED : DisruptionRecord.DONE;
                List<String> all = new ArrayList<>(notes);
                if (started == null) {
                    all.add("the run ended before its start");
                }
                return new DisruptionRecord(plan.disruption().name(), plan.at().toNanos() / 1e9, plannedEnd, started,
                        ended, outcome, all);
            }
        }

        DisruptionSchedule(List<DisruptionPlan> plans, long runStart) {
            plans.forEach(p -> scheduled.add(new Scheduled(p, runStart)));
        }

        void start() {
            for (Scheduled s : scheduled) {
                s.thread = new Thread(s, "gauntlet-disruption-" + s.plan.disruption().name());
                s.thread.setDaemon(true);
                s.thread.start();
            }
        }

        /** Waits until {@code at}, or returns false when the run is stopping first. */
        private boolean sleepUntil(long at) throws InterruptedException {
            for (long left = at - System.nanoTime(); left > 0; left = at - System.nanoTime()) {
                if (stopping) {
                    return false;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            return !stopping;
        }

        /** Called when the run has ended: nothing stays disrupted; what each disruption did, in plan order. */
        List<DisruptionRecord> finish() throws InterruptedException {
            for (Scheduled s : scheduled) {
                if (s.thread == null) {
                    continue;
                }
                s.thread.interrupt();
                s.thread.join(TimeUnit.SECONDS.toMillis(30));
                s.switchOff();
            }
            return scheduled.stream().map(Scheduled::record).toList();
        }
    }

    private double seconds(long nanoTime) {
        return (nanoTime - startNanos) / 1e9;
    }

    private List<ErrorCount> allErrors() {
        List<ErrorCount> all = new ArrayList<>(errors.snapshot());
        all.addAll(retried.snapshot());
        return all;
    }

    private OperationStats stats(String name) {
        return stats.computeIfAbsent(name, this::newStats);
    }

    /** Few enough workers each record into a stripe of their own, with the cheaper single-writer protocol. */
    private OperationStats newStats(String name) {
        int workers = Math.min(plan.workers(), plan.clients());
        return new OperationStats(name, workers <= LatencyRecorder.STRIPES ? workers : 0);
    }

    /** The end of the run as far as anything is measured: the deadline, or when a stop was requested. */
    private long runEnd() {
        return Math.min(endNanos, stopAtNanos);
    }

    // ---------------------------------------------------------------- clients

    /**
     * A role while it runs: its clients, its schedule (open loop), what it issued (all of it; the reporter takes the
     * measured share interval by interval, as it does the operations' counts) and what it left unissued.
     */
    private final class RoleState {
        final Role role;
        /** Open loop: set when the role starts (at the run's start, or when the role it waits for is ready). */
        volatile RateSchedule schedule;
        volatile boolean started;
        /** Seconds into the run when it started. */
        volatile double startedAt;
        final List<Client> clients = new ArrayList<>();
        /** The roles that start once every client of this one has finished an operation. */
        final List<RoleState> followers = new ArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger notReady;
        final java.util.concurrent.atomic.LongAdder issued = new java.util.concurrent.atomic.LongAdder();
        final java.util.concurrent.atomic.LongAdder unissued = new java.util.concurrent.atomic.LongAdder();
        /** Reporter only: the issued count at the last interval's close, and the share in measured intervals. */
        long issuedBefore;
        long issuedMeasured;

        RoleState(Role role) {
            this.role = role;
            this.notReady = new java.util.concurrent.atomic.AtomicInteger(role.clients());
        }

        /** Starts the role's clients {@code shift} nanoseconds after the run's start (their ramp shifted with it). */
        void start(long shift) {
            if (role.openLoop()) {
                schedule = new RateSchedule(startNanos + plan.ramp().toNanos() + shift, role.rate());
            }
            startedAt = shift / 1e9;
            started = true;
            for (Client c : clients) {
                c.notBefore += shift;
                c.wakeAt = c.notBefore;
                if (stopping) {
                    finish(c);
                } else {
                    queue.add(c);
                }
            }
        }

        /** A client finished its first operation; the last one to do so starts the roles waiting for this one. */
        void clientReady() {
            if (notReady.decrementAndGet() == 0) {
                long shift = System.nanoTime() - startNanos;
                followers.forEach(f -> f.start(shift));
            }
        }
    }

    /** One simulated client; served by at most one worker at a time (it is out of the queue while served). */
    private final class Client implements Delayed {
        final int index;
        final RoleState role;
        final ClientScript<S> script;
        final Attempt observed = new Attempt();
        S session;
        Operation<S> pending;
        /** The stats of the last operation name seen: most scripts repeat a few names, so lookups are rare. */
        String statsName;
        OperationStats opStats;
        long notBefore;
        long wakeAt;
        long intended;
        long firstIntended;
        long firstStart;
        long lastEnd;
        int attempt;
        int reconnects;
        long opens;
        long completed;
        boolean scriptEnded;
        boolean done;

        Client(int index, RoleState role, ClientScript<S> script) {
            this.index = index;
            this.role = role;
            this.script = script;
        }

        OperationStats statsOf(Operation<S> op) {
            String name = op.name();
            if (name != statsName) { // identity first: operation names are usually constants
                opStats = stats(name);
                roleOfOperation.merge(name, role.role.name(), (a, b) -> a.equals(b) ? a : SHARED_OPERATION);
                statsName = name;
            }
            return opStats;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(wakeAt - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            @SuppressWarnings("unchecked")
            Client other = (Client) o;
            return Long.compare(wakeAt, other.wakeAt);
        }
    }

    /** A worker: serves clients whose time has come; {@code stripe} is its own slot in the latency recorders. */
    private void work(int stripe) {
        try {
            while (!stopping) {
                Client c = queue.poll(50, TimeUnit.MILLISECONDS);
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
    private void serve(Client c, int stripe) {
        long now = System.nanoTime();
        while (true) {
            if (stopping || now >= endNanos) {
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
        Client head = queue.peek();
        return head != null && head.wakeAt <= now;
    }

    private boolean nextOperation(Client c, long now) {
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
    private boolean connect(Client c) {
        OperationStats s = c.statsOf(c.pending);
        if (c.opens++ > 0) {
            s.countReconnect();
        }
        try {
            c.session = target.open();
            c.reconnects = 0;
            if (c.opens > 1) {
                countFailure(dev.gauntlet.core.result.Interval.REOPENED);
            }
            return true;
        } catch (Throwable e) {
            Failure f = target.classify(e);
            long now = System.nanoTime();
            if (f.kind() == Failure.Kind.FATAL) {
                countError(s, f);
                ended(c, s, now);
                fail(f.message());
                finish(c);
                return false;
            }
            errors.count(ErrorCount.RECONNECT, f.code(), f.message());
            countFailure(ErrorCount.RECONNECT);
            park(c, now + Backoff.RECONNECT.pauseNanos(++c.reconnects));
            return false;
        }
    }

    /**
     * One attempt of the pending operation, starting at {@code now}; on return the client either completed it or
     * set {@code wakeAt}. Returns the time the attempt ended.
     */
    private long attempt(Client c, long now, int stripe) {
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
            record(c.observed, s, end, stripe);
        }
        c.role.issued.increment();
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

    /** What a committed attempt said it saw, into the runner's recorders (observations are discarded otherwise). */
    private void record(Attempt observed, OperationStats s, long commitNanoTime, int stripe) {
        observed.replay((kind, name, value) -> {
            switch (kind) {
                case COUNT -> s.counters().add(name, value);
                case LATENCY -> observation(name).record(value, stripe);
                case LATENCY_SINCE -> observation(name).record(RunClock.epochNanos(commitNanoTime) - value, stripe);
                case GAUGE -> gauge(name, OPERATION_GAUGE).set(value);
                case GAUGE_MILLIS_SINCE -> gauge(name, OPERATION_AGE).set(Math.max(0,
                        (RunClock.epochNanos(commitNanoTime) - value) / 1_000_000));
            }
        });
    }

    /** A gauge an operation sets: a level of its process's own share (consumer lag over its partitions). */
    private static final GaugeInfo OPERATION_GAUGE = GaugeInfo.level(GaugeInfo.Merge.SUM);
    /** An age an operation sets (the oldest message's): the largest of the processes' is meant. */
    private static final GaugeInfo OPERATION_AGE = GaugeInfo.level(GaugeInfo.Merge.MAX);

    private java.util.concurrent.atomic.AtomicLong gauge(String name, GaugeInfo info) {
        gaugeInfo.putIfAbsent(name, info);
        return gauges.computeIfAbsent(name, n -> new java.util.concurrent.atomic.AtomicLong());
    }

    private LatencyRecorder observation(String name) {
        return observations.computeIfAbsent(name, n -> {
            int workers = Math.min(plan.workers(), plan.clients());
            return new LatencyRecorder(workers <= LatencyRecorder.STRIPES ? workers : 0);
        });
    }

    /** The error policy: what each kind of failure means for the client and the run. */
    private void onFailure(Client c, OperationStats s, S session, Failure f, long now) {
        switch (f.kind()) {
            case RETRY -> {
                if (c.attempt + 1 < plan.maxAttempts()) {
                    s.countRetry();
                    retried.count(ErrorCount.RETRIED, f.code(), f.message());
                    countFailure(ErrorCount.RETRIED);
                    c.attempt++;
                    releaseIfPooled(session, false);
                    c.wakeAt = now + Backoff.RETRY.pauseNanos(c.attempt);
                    c.intended = c.wakeAt;
                    return;
                }
                countError(s, new Failure(f.kind(), f.code(),
                        "gave up after " + plan.maxAttempts() + " attempts: " + f.message()));
                releaseIfPooled(session, false);
            }
            case CONNECTION, AMBIGUOUS_COMMIT -> {
                if (f.kind() == Failure.Kind.AMBIGUOUS_COMMIT) {
                    c.observed.commitUnknown();
                }
                countError(s, f);
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
                countError(s, f);
                releaseIfPooled(session, false);
            }
            case FATAL -> {
                countError(s, f);
                releaseIfPooled(session, true);
                fail(c.pending.name() + ": " + f.message());
            }
        }
        ended(c, s, now);
        c.wakeAt = 0;
    }

    /** The pending operation ended in failure at {@code now}: its latency goes into the failed histogram. */
    private void ended(Client c, OperationStats s, long now) {
        s.recordFailure(now - c.firstIntended);
        c.role.issued.increment();
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

    private void countError(OperationStats s, Failure f) {
        s.countError();
        errors.count(f.kind().label(), f.code(), f.message());
        countFailure(f.kind().label());
    }

    private void countFailure(String failureClass) {
        failuresByClass.computeIfAbsent(failureClass, k -> new java.util.concurrent.atomic.LongAdder()).increment();
    }

    private void fail(String message) {
        fatalError.compareAndSet(null, message);
        requestStop("fatal error");
    }

    private void park(Client c, long at) {
        if (stopping) {
            finish(c);
            return;
        }
        c.wakeAt = at;
        queue.add(c);
    }

    /** The client is done; an operation it was due to run before the end and never completed is unissued. */
    private void finish(Client c) {
        synchronized (c) {
            if (c.done) {
                return;
            }
            c.done = true;
        }
        long end = runEnd();
        if (c.pending != null && c.firstIntended < end) {
            c.statsOf(c.pending).recordUnissued(end - c.firstIntended);
            c.role.unissued.increment();
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

    /**
     * Open loop: slots that fell due before the end but no client of the role took (every one was busy) are
     * unissued too. Which operation each would have been is drawn from the role's clients' scripts in turn, as the
     * clients would have drawn them; each waited at least from its slot to the end.
     */
    private void countUntakenSlots(long endAt) {
        if (plan.duration() == null && stopAtNanos == NO_DEADLINE) {
            return;
        }
        for (RoleState role : roles) {
            RateSchedule schedule = role.schedule;
            if (schedule == null) {
                continue;
            }
            long due = schedule.dueBefore(endAt);
            int next = 0;
            for (long k = schedule.taken(); k < due; k++) {
                String op = null;
                for (int tries = 0; tries < role.clients.size() && op == null; tries++) {
                    Client c = role.clients.get(next);
                    next = (next + 1) % role.clients.size();
                    op = c.scriptEnded ? null : drawOperationName(c);
                }
                if (op == null) {
                    op = workload.operationNames().isEmpty() ? "unissued" : workload.operationNames().get(0);
                }
                stats(op).recordUnissued(endAt - schedule.intendedStart(k));
                role.unissued.increment();
            }
        }
    }

    private String drawOperationName(Client c) {
        try {
            Step<S> step = c.script.next();
            if (step == null) {
                c.scriptEnded = true;
                return null;
            }
            return step.operation().name();
        } catch (RuntimeException e) {
            c.scriptEnded = true;
            return null;
        }
    }

    // ---------------------------------------------------------------- reporting

    /**
     * Closes intervals on the calling thread, exactly at every phase boundary; keeps the measured phases' cumulative
     * histograms and counters, and each phase's own.
     */
    private final class Reporter {
        final long startMillis;
        final List<PhasePlan> timeline;
        final long[] phaseEnds;
        final long everyNanos = plan.reportEvery().toNanos();
        final List<Interval> intervals = new ArrayList<>();
        final List<Phase> phases = new ArrayList<>();
        final Map<String, Totals> totals = new LinkedHashMap<>();
        final Map<String, Long> phaseCounts = new LinkedHashMap<>();
        /** Each failure class's run total at the last interval's end. */
        final Map<String, Long> failuresSeen = new java.util.HashMap<>();
        /** Measured-phase distribution of each observation, and last/min/max of each gauge at interval ends. */
        final Map<String, Histogram> observationTotals = new java.util.TreeMap<>();
        final Map<String, GaugeSummary> gaugeTotals = new java.util.TreeMap<>();
        /** The current phase's figures per operation, from its intervals. */
        Map<String, PhaseFigures> phaseFigures = new LinkedHashMap<>();
        long lastTick;
        long nextRegular;
        int phaseIndex;
        long phaseStart;
        long measuredNanos;
        boolean measuredYet;
        String phase;

        /** One operation's measured-phase totals, and the cumulative counters last seen (for differences). */
        final class Totals {
            final Histogram latency = LatencyRecorder.newHistogram();
            final Histogram service = LatencyRecorder.newHistogram();
            final Histogram poolWait = LatencyRecorder.newHistogram();
            final Histogram failed = LatencyRecorder.newHistogram();
            final Histogram unissued = LatencyRecorder.newHistogram();
            final Map<String, Long> counters = new java.util.TreeMap<>();
            long errors;
            long retries;
            long reconnects;
            long lastErrors;
            long lastRetries;
            long lastReconnects;
            long lastClamped;
            long clamped;
            Map<String, Long> lastCounters = Map.of();
        }

        /** One operation over the current phase. */
        final class PhaseFigures {
            final Histogram latency = LatencyRecorder.newHistogram();
            final Map<String, Long> counters = new java.util.TreeMap<>();
            long errors;
            long retries;

            IntervalOperation over(double seconds) {
                return IntervalOperation.of(latency, seconds, errors, retries, counters);
            }
        }

        /** Probe readings when the current phase began. */
        Map<String, Long> phaseProbes;
        /** The gauges each rate probe last returned (removed when a read fails). */
        final Map<GaugeProbe, java.util.Set<String>> rateNames = new java.util.HashMap<>();

        Reporter(long startMillis, List<PhasePlan> timeline, long[] phaseEnds, Map<String, Long> probesAtStart) {
            this.phaseProbes = probesAtStart;
            this.startMillis = startMillis;
            this.timeline = timeline;
            this.phaseEnds = phaseEnds;
            this.lastTick = startNanos;
            this.nextRegular = startNanos + everyNanos;
            this.phase = timeline.get(0).name();
            this.phaseStart = startNanos;
            this.measuredYet = timeline.get(0).measured();
            tell(() -> listener.onPhaseStart(phase, 0));
        }

        boolean phaseMeasured() {
            return timeline.get(phaseIndex).measured();
        }

        /** Returns when the run should end: deadline reached, every client done, or a stop was requested. */
        void loop() throws InterruptedException {
            while (clientsDone.getCount() > 0 && !stopping) {
                long now = System.nanoTime();
                if (now >= endNanos) {
                    return; // the final interval is closed after in-flight operations drain
                }
                long next = Math.min(nextRegular, Math.min(endNanos, phaseEnds[phaseIndex]));
                if (now < next) {
                    synchronized (wakeReporter) {
                        if (clientsDone.getCount() > 0 && !stopping) {
                            wakeReporter.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - now)));
                        }
                    }
                    continue;
                }
                tick(now);
            }
        }

        void tick(long now) {
            if (now >= nextRegular) {
                nextRegular = startNanos + ((now - startNanos) / everyNanos + 1) * everyNanos;
            }
            closeInterval(now);
            while (phaseIndex < timeline.size() - 1 && now >= phaseEnds[phaseIndex]) {
                nextPhase(now);
            }
        }

        /** Ends the current phase at {@code now} and begins the next one. */
        void nextPhase(long now) {
            Phase done = endPhase(now);
            phaseIndex++;
            PhasePlan next = timeline.get(phaseIndex);
            String previous = phase;
            phase = next.name();
            phaseStart = now;
            if (intervalLog != null) {
                intervalLog.comment(Phase.WARMUP.equals(previous)
                        ? String.format(java.util.Locale.ROOT,
                                "warm-up ended at %.3f s; the intervals after this line are measured", seconds(now))
                        : String.format(java.util.Locale.ROOT, "phase %s began at %.3f s", phase, seconds(now)));
            }
            if (next.measured() && !measuredYet) {
                // The first measured phase: errors count from here, like everything else in the totals.
                measuredYet = true;
                errors = new ErrorTally();
                retried = new ErrorTally();
            }
            phaseCounts.clear();
            tell(() -> listener.onPhaseEnd(done));
            tell(() -> listener.onPhaseStart(next.name(), seconds(now)));
        }

        /** The current phase as the result keeps it, ending at {@code end}; its figures start over. */
        Phase endPhase(long end) {
            double length = (end - phaseStart) / 1e9;
            if (phaseMeasured()) {
                measuredNanos += end - phaseStart;
            }
            Map<String, IntervalOperation> figures = new LinkedHashMap<>();
            phaseFigures.forEach((op, f) -> figures.put(op, f.over(length)));
            phaseFigures = new LinkedHashMap<>();
            Phase p = new Phase(phase, seconds(phaseStart), seconds(end), probeRise(), phaseMeasured(), figures);
            phases.add(p);
            return p;
        }

        /**
         * The last interval: it ends when the run ended ({@code endAt}) but also holds the operations that were in
         * flight then and finished during the drain, and the unissued ones.
         */
        void close(long endAt) {
            long end = Math.max(endAt, lastTick);
            closeInterval(end);
            Phase last = endPhase(end);
            tell(() -> listener.onPhaseEnd(last));
        }

        /** How much each probe rose since the current phase began; the readings now start the next phase. */
        Map<String, Long> probeRise() {
            Map<String, Long> now = readProbes();
            Map<String, Long> rise = new LinkedHashMap<>();
            now.forEach((name, value) -> {
                Long before = phaseProbes.get(name);
                if (before != null && value != null) {
                    rise.put(name, value - before);
                }
            });
            phaseProbes = now;
            return rise;
        }

        /** A listener that throws stops the run with its message instead of killing the reporter silently. */
        void tell(Runnable notification) {
            try {
                notification.run();
            } catch (RuntimeException e) {
                fail("a run listener failed: " + e);
            }
        }

        double measuredSeconds() {
            return measuredNanos / 1e9;
        }

        void closeInterval(long now) {
            double secs = (now - lastTick) / 1e9;
            long fromMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(lastTick - startNanos);
            long toMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(now - startNanos);
            boolean measuring = phaseMeasured();
            Map<String, IntervalOperation> ops = new LinkedHashMap<>();
            long intervalErrors = 0;
            long intervalRetries = 0;
            // Everything cumulative is read back to back first, so an operation finishing meanwhile falls on the same
            // side of the interval's end in its histograms, its counters and its role's issued count.
            List<OperationStats> stats = orderedStats();
            Map<OperationStats, OperationStats.Snapshot> snaps = new java.util.IdentityHashMap<>();
            Map<OperationStats, Map<String, Long>> counterValues = new java.util.IdentityHashMap<>();
            for (OperationStats s : stats) {
                snaps.put(s, s.takeInterval());
                counterValues.put(s, s.counterValues());
            }
            // A role's issued operations: its operations' committed and failed counts in these same snapshots when
            // no operation is shared between roles; otherwise the roles' own counters, read just after the snapshots
            // (an operation ending in between is counted in this interval here and in the next in its histogram).
            boolean exact = !roleOfOperation.containsValue(SHARED_OPERATION);
            Map<String, Long> issuedNow = new java.util.HashMap<>();
            if (exact) {
                snaps.forEach((s, snap) -> {
                    String role = roleOfOperation.get(s.name());
                    if (role != null) {
                        issuedNow.merge(role, snap.latency().getTotalCount() + snap.failed().getTotalCount(), Long::sum);
                    }
                });
            }
            for (RoleState r : roles) {
                long issued = r.issued.sum();
                long inInterval = exact ? issuedNow.getOrDefault(r.role.name(), 0L) : issued - r.issuedBefore;
                if (measuring) {
                    r.issuedMeasured += inInterval;
                }
                r.issuedBefore = issued;
            }
            for (OperationStats s : stats) {
                Totals t = totals.computeIfAbsent(s.name(), n -> new Totals());
                OperationStats.Snapshot snap = snaps.get(s);
                long errorsNow = s.errors();
                long retriesNow = s.retries();
                long reconnectsNow = s.reconnects();
                long clampedNow = s.clamped();
                long dErrors = errorsNow - t.lastErrors;
                long dRetries = retriesNow - t.lastRetries;
                long dReconnects = reconnectsNow - t.lastReconnects;
                long dClamped = clampedNow - t.lastClamped;
                t.lastErrors = errorsNow;
                t.lastRetries = retriesNow;
                t.lastReconnects = reconnectsNow;
                t.lastClamped = clampedNow;
                intervalErrors += dErrors;
                intervalRetries += dRetries;
                if (intervalLog != null) {
                    intervalLog.write(s.name(), snap.latency(), fromMillis, toMillis);
                    intervalLog.write(s.name() + ".service", snap.service(), fromMillis, toMillis);
                    intervalLog.write(s.name() + ".poolWait", snap.poolWait(), fromMillis, toMillis);
                    intervalLog.write(s.name() + ".failed", snap.failed(), fromMillis, toMillis);
                    intervalLog.write(s.name() + ".unissued", snap.unissued(), fromMillis, toMillis);
                }
                Map<String, Long> own = counterValues.get(s);
                Map<String, Long> intervalCounters = new java.util.TreeMap<>();
                Map<String, Long> previous = t.lastCounters;
                own.forEach((k, v) -> {
                    long delta = v - previous.getOrDefault(k, 0L);
                    if (delta != 0) {
                        intervalCounters.put(k, delta);
                    }
                });
                if (measuring) {
                    intervalCounters.forEach((k, v) -> t.counters.merge(k, v, Long::sum));
                    t.latency.add(snap.latency());
                    t.service.add(snap.service());
                    t.poolWait.add(snap.poolWait());
                    t.failed.add(snap.failed());
                    t.unissued.add(snap.unissued());
                    t.errors += dErrors;
                    t.retries += dRetries;
                    t.reconnects += dReconnects;
                    t.clamped += dClamped;
                }
                t.lastCounters = own;
                long count = snap.latency().getTotalCount();
                phaseCounts.merge(s.name(), count, Long::sum);
                PhaseFigures f = phaseFigures.computeIfAbsent(s.name(), n -> new PhaseFigures());
                f.latency.add(snap.latency());
                f.errors += dErrors;
                f.retries += dRetries;
                intervalCounters.forEach((k, v) -> f.counters.merge(k, v, Long::sum));
                ops.put(s.name(), IntervalOperation.of(snap.latency(), secs, dErrors, dRetries, intervalCounters));
            }
            Map<String, Timing> observed = new java.util.TreeMap<>();
            for (Map.Entry<String, LatencyRecorder> o : new java.util.TreeMap<>(observations).entrySet()) {
                Histogram h = o.getValue().takeInterval();
                if (intervalLog != null) {
                    intervalLog.write("obs." + o.getKey(), h, fromMillis, toMillis);
                }
                Timing timing = Timing.of(h);
                if (timing != null) {
                    observed.put(o.getKey(), timing);
                }
                if (measuring) {
                    observationTotals.computeIfAbsent(o.getKey(), n -> LatencyRecorder.newHistogram()).add(h);
                }
            }
            // Rates are read here, at every close (phase boundaries and the end too): each interval its own counts.
            rateProbes.forEach(p -> sample(p, rateNames.computeIfAbsent(p, k -> new java.util.HashSet<>())));
            Map<String, Long> gaugeValues = new java.util.TreeMap<>();
            gauges.forEach((name, value) -> gaugeValues.put(name, value.get()));
            if (measuring) {
                gaugeValues.forEach((name, v) -> gaugeTotals.merge(name,
                        new GaugeSummary(v, v, v, gaugeInfo.getOrDefault(name, GaugeInfo.UNDECLARED)),
                        (old, fresh) -> old.and(v)));
            }
            if (intervalLog != null) {
                intervalLog.flush();
            }
            Map<String, Long> failed = new java.util.TreeMap<>();
            failuresByClass.forEach((name, count) -> {
                long total = count.sum();
                long delta = total - failuresSeen.getOrDefault(name, 0L);
                failuresSeen.put(name, total);
                if (delta > 0) {
                    failed.put(name, delta);
                }
            });
            Interval interval = new Interval(seconds(now), secs, phase, ops, intervalErrors, intervalRetries, observed,
                    gaugeValues, failed);
            intervals.add(interval);
            lastTick = now;
            double phaseSeconds = (now - phaseStart) / 1e9;
            Map<String, Long> counts = Map.copyOf(phaseCounts);
            tell(() -> listener.onInterval(interval, counts, phaseSeconds));
        }

        List<OperationStats> orderedStats() {
            List<OperationStats> ordered = new ArrayList<>();
            for (String name : workload.operationNames()) {
                ordered.add(stats.get(name));
            }
            stats.values().stream().filter(s -> !workload.operationNames().contains(s.name()))
                    .sorted(java.util.Comparator.comparing(OperationStats::name)).forEach(ordered::add);
            return ordered;
        }

        List<OperationResult> totals() {
            double measured = measuredSeconds();
            List<OperationResult> list = new ArrayList<>();
            for (OperationStats s : orderedStats()) {
                Totals t = totals.get(s.name());
                long count = t.latency.getTotalCount();
                list.add(new OperationResult(s.name(), count, t.errors, t.retries, measured > 0 ? count / measured : 0,
                        LatencySummary.of(t.latency), HistogramCodec.encode(t.latency), Timing.of(t.service),
                        Timing.of(t.poolWait), Timing.of(t.failed), t.unissued.getTotalCount(), Timing.of(t.unissued),
                        t.reconnects, t.clamped, t.counters));
            }
            return list;
        }
    }
}

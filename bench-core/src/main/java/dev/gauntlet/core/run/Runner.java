package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.ErrorTally;
import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.Timing;
import java.time.Instant;
import java.util.ArrayList;
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
    private final IntervalLog intervalLog;

    private final Map<String, OperationStats> stats = new ConcurrentHashMap<>();
    /** Replaced when the warm-up ends, so results count only the measured phase. */
    private volatile ErrorTally errors = new ErrorTally();
    private volatile ErrorTally retried = new ErrorTally();
    private final DelayQueue<Client> queue = new DelayQueue<>();
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    private final AtomicReference<String> fatalError = new AtomicReference<>();
    private final CountDownLatch clientsDone;
    private final Object wakeReporter = new Object();

    private volatile boolean stopping;
    private long startNanos;
    private long endNanos = NO_DEADLINE;
    private RateSchedule rateSchedule;

    public Runner(RunPlan plan, Workload<S> workload, Target<S> target, RunListener listener,
                  IntervalLog intervalLog) {
        this.plan = plan;
        this.workload = workload;
        this.target = target;
        this.listener = listener;
        this.intervalLog = intervalLog;
        this.clientsDone = new CountDownLatch(plan.clients());
        for (String name : workload.operationNames()) {
            stats.put(name, new OperationStats(name));
        }
    }

    /** Asks the run to end early (Ctrl-C); operations in flight finish and are recorded. Idempotent. */
    public void requestStop(String reason) {
        stopReason.compareAndSet(null, reason);
        stopping = true;
        synchronized (wakeReporter) {
            wakeReporter.notifyAll();
        }
    }

    public RunRecord run() throws InterruptedException {
        Instant startedAt = Instant.now();
        long startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
        long warmupEnd = startNanos + plan.warmup().toNanos();
        if (plan.duration() != null) {
            endNanos = warmupEnd + plan.duration().toNanos();
        }
        if (plan.openLoop()) {
            rateSchedule = new RateSchedule(startNanos + plan.ramp().toNanos(), plan.rate());
        }

        for (int i = 0; i < plan.clients(); i++) {
            SplittableRandom random = new SplittableRandom(plan.seed() * 1_000_003L + i);
            Client c = new Client(i, workload.client(i, plan.clients(), random));
            c.notBefore = startNanos + (plan.clients() == 1 ? 0 : plan.ramp().toNanos() * i / plan.clients());
            c.wakeAt = c.notBefore;
            queue.add(c);
        }
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < Math.min(plan.workers(), plan.clients()); i++) {
            Thread t = new Thread(this::work, "gauntlet-worker-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }

        Reporter reporter = new Reporter(startMillis, warmupEnd);
        reporter.loop();

        // Let operations in flight finish, then end the clients that were waiting.
        stopping = true;
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
        reporter.close();
        Instant endedAt = Instant.now();
        stopReason.compareAndSet(null, plan.duration() != null ? "duration" : "iterations");
        return new RunRecord(startedAt, endedAt, reporter.measuredSeconds(), reporter.totals(),
                reporter.intervals, reporter.phases, allErrors(), stopReason.get(), fatalError.get(), unfinished);
    }

    private List<ErrorCount> allErrors() {
        List<ErrorCount> all = new ArrayList<>(errors.snapshot());
        all.addAll(retried.snapshot());
        return all;
    }

    private OperationStats stats(String name) {
        return stats.computeIfAbsent(name, OperationStats::new);
    }

    // ---------------------------------------------------------------- clients

    /** One simulated client; served by at most one worker at a time (it is out of the queue while served). */
    private final class Client implements Delayed {
        final int index;
        final ClientScript<S> script;
        S session;
        Operation<S> pending;
        long notBefore;
        long wakeAt;
        long intended;
        long firstIntended;
        long firstStart;
        long lastEnd;
        int attempt;
        int reconnects;
        long completed;
        boolean done;

        Client(int index, ClientScript<S> script) {
            this.index = index;
            this.script = script;
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

    private void work() {
        try {
            while (!stopping) {
                Client c = queue.poll(50, TimeUnit.MILLISECONDS);
                if (c != null) {
                    serve(c);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            fail("internal error in the runner: " + t);
        }
    }

    /** Runs the client's operations back to back until it must wait; then puts it back in the queue. */
    private void serve(Client c) {
        while (true) {
            long now = System.nanoTime();
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
            if (!target.sessionPerTransaction() && c.session == null && !connect(c)) {
                return;
            }
            attempt(c);
            if (c.wakeAt > System.nanoTime()) {
                park(c, c.wakeAt);
                return;
            }
        }
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
            return false;
        }
        c.pending = step.operation();
        c.attempt = 0;
        if (rateSchedule != null) {
            c.intended = Math.max(rateSchedule.next(), c.notBefore);
        } else {
            long base = c.completed == 0 && c.lastEnd == 0 ? c.notBefore : c.lastEnd;
            c.intended = base + step.pauseNanos();
        }
        c.firstIntended = c.intended;
        c.wakeAt = 0;
        return true;
    }

    private boolean connect(Client c) {
        try {
            c.session = target.open();
            c.reconnects = 0;
            return true;
        } catch (Throwable e) {
            Failure f = target.classify(e);
            String op = c.pending == null ? "connect" : c.pending.name();
            if (f.kind() == Failure.Kind.FATAL) {
                countError(op, f);
                fail(f.message());
                finish(c);
                return false;
            }
            countError(op, new Failure(Failure.Kind.CONNECTION, f.code(), f.message()));
            park(c, System.nanoTime() + Backoff.RECONNECT.pauseNanos(++c.reconnects));
            return false;
        }
    }

    /** One attempt of the pending operation; on return the client either completed it or set {@code wakeAt}. */
    private void attempt(Client c) {
        Operation<S> op = c.pending;
        OperationStats opStats = stats(op.name());
        boolean perTransaction = target.sessionPerTransaction();
        S session = c.session;
        if (perTransaction) {
            long borrowStart = System.nanoTime();
            try {
                session = target.open();
            } catch (Throwable e) {
                onFailure(c, null, target.classify(e));
                return;
            }
            opStats.recordPoolWait(System.nanoTime() - borrowStart);
        }
        long start = System.nanoTime();
        if (c.attempt == 0) {
            c.firstStart = start;
        }
        try {
            target.transact(session, op);
            long end = System.nanoTime();
            opStats.recordSuccess(end - c.firstIntended, end - c.firstStart);
            op.committed(opStats.counters());
            if (perTransaction) {
                target.release(session, false);
            }
            c.completed++;
            c.pending = null;
            c.lastEnd = end;
            c.wakeAt = 0;
        } catch (Throwable e) {
            onFailure(c, session, target.classify(e));
        }
    }

    /** The error policy: what each kind of failure means for the client and the run. */
    private void onFailure(Client c, S session, Failure f) {
        Operation<S> op = c.pending;
        long now = System.nanoTime();
        boolean perTransaction = target.sessionPerTransaction();
        switch (f.kind()) {
            case RETRY -> {
                if (c.attempt + 1 < plan.maxAttempts()) {
                    stats(op.name()).countRetry();
                    retried.count(dev.gauntlet.core.result.ErrorCount.RETRIED, f.code(), f.message());
                    c.attempt++;
                    releaseIfPooled(session, false);
                    c.wakeAt = now + Backoff.RETRY.pauseNanos(c.attempt);
                    c.intended = c.wakeAt;
                    return;
                }
                countError(op.name(), new Failure(f.kind(), f.code(),
                        "gave up after " + plan.maxAttempts() + " attempts: " + f.message()));
                releaseIfPooled(session, false);
            }
            case CONNECTION, AMBIGUOUS_COMMIT -> {
                countError(op.name(), f);
                if (session != null) {
                    target.release(session, true);
                }
                if (!perTransaction) {
                    c.session = null;
                }
                abandon(c, now);
                // Reconnect after a pause rather than hammering a server that is restarting.
                c.wakeAt = now + Backoff.RECONNECT.pauseNanos(++c.reconnects);
                return;
            }
            case TIMEOUT -> {
                countError(op.name(), f);
                releaseIfPooled(session, false);
            }
            case FATAL -> {
                countError(op.name(), f);
                releaseIfPooled(session, true);
                fail(op.name() + ": " + f.message());
            }
        }
        abandon(c, now);
        c.wakeAt = 0;
    }

    private void abandon(Client c, long now) {
        c.pending = null;
        c.completed++;
        c.lastEnd = now;
    }

    private void releaseIfPooled(S session, boolean broken) {
        if (session != null && target.sessionPerTransaction()) {
            target.release(session, broken);
        }
    }

    private void countError(String operation, Failure f) {
        stats(operation).countError();
        errors.count(f.kind().label(), f.code(), f.message());
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

    private void finish(Client c) {
        synchronized (c) {
            if (c.done) {
                return;
            }
            c.done = true;
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

    // ---------------------------------------------------------------- reporting

    /** Closes intervals on the calling thread; keeps the measure phase's cumulative histograms. */
    private final class Reporter {
        final long startMillis;
        final long warmupEnd;
        final long everyNanos = plan.reportEvery().toNanos();
        final List<Interval> intervals = new ArrayList<>();
        final List<Phase> phases = new ArrayList<>();
        final Map<String, Histogram[]> cumulative = new LinkedHashMap<>();
        final Map<String, long[]> lastCounters = new ConcurrentHashMap<>();
        final Map<String, Map<String, Long>> lastOwnCounters = new LinkedHashMap<>();
        final Map<String, Map<String, Long>> totalOwnCounters = new LinkedHashMap<>();
        final Map<String, Long> phaseCounts = new LinkedHashMap<>();
        long lastTick;
        long nextRegular;
        long measureStart = -1;
        long measureEnd = -1;
        String phase;

        Reporter(long startMillis, long warmupEnd) {
            this.startMillis = startMillis;
            this.warmupEnd = warmupEnd;
            this.lastTick = startNanos;
            this.nextRegular = startNanos + everyNanos;
            this.phase = warmupEnd > startNanos ? Phase.WARMUP : Phase.MEASURE;
            if (phase.equals(Phase.MEASURE)) {
                measureStart = startNanos;
            }
        }

        /** Returns when the run should end: deadline reached, every client done, or a stop was requested. */
        void loop() throws InterruptedException {
            while (clientsDone.getCount() > 0 && !stopping) {
                long now = System.nanoTime();
                if (now >= endNanos) {
                    return; // the final interval is closed after in-flight operations drain
                }
                long next = Math.min(nextRegular, endNanos);
                if (phase.equals(Phase.WARMUP)) {
                    next = Math.min(next, warmupEnd);
                }
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
            if (phase.equals(Phase.WARMUP) && now >= warmupEnd) {
                Phase warmup = new Phase(Phase.WARMUP, 0, seconds(now));
                phases.add(warmup);
                listener.onPhaseEnd(warmup);
                phase = Phase.MEASURE;
                measureStart = now;
                phaseCounts.clear();
                errors = new ErrorTally();
                retried = new ErrorTally();
            }
        }

        void close() {
            long now = System.nanoTime();
            closeInterval(now);
            if (phase.equals(Phase.MEASURE)) {
                measureEnd = now;
                Phase measure = new Phase(Phase.MEASURE, seconds(measureStart), seconds(now));
                phases.add(measure);
                listener.onPhaseEnd(measure);
            } else {
                // Stopped during warm-up: nothing was measured.
                Phase warmup = new Phase(Phase.WARMUP, 0, seconds(now));
                phases.add(warmup);
                listener.onPhaseEnd(warmup);
            }
        }

        double measuredSeconds() {
            return measureStart < 0 || measureEnd < 0 ? 0 : (measureEnd - measureStart) / 1e9;
        }

        double seconds(long nanos) {
            return (nanos - startNanos) / 1e9;
        }

        void closeInterval(long now) {
            double secs = (now - lastTick) / 1e9;
            if (secs <= 0) {
                return;
            }
            long fromMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(lastTick - startNanos);
            long toMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(now - startNanos);
            boolean measuring = phase.equals(Phase.MEASURE);
            Map<String, IntervalOperation> ops = new LinkedHashMap<>();
            long intervalErrors = 0;
            long intervalRetries = 0;
            for (OperationStats s : orderedStats()) {
                Histogram[] cum = cumulative.computeIfAbsent(s.name(), n -> new Histogram[] {
                        LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram()});
                Histogram latency = s.latency().takeInterval();
                Histogram service = s.service().takeInterval();
                Histogram poolWait = s.poolWait().takeInterval();
                long[] last = lastCounters.computeIfAbsent(s.name(), n -> new long[2]);
                long errorsNow = s.errors();
                long retriesNow = s.retries();
                long dErrors = errorsNow - last[0];
                long dRetries = retriesNow - last[1];
                last[0] = errorsNow;
                last[1] = retriesNow;
                intervalErrors += dErrors;
                intervalRetries += dRetries;
                if (intervalLog != null) {
                    intervalLog.write(s.name(), latency, fromMillis, toMillis);
                    intervalLog.write(s.name() + ".service", service, fromMillis, toMillis);
                    intervalLog.write(s.name() + ".poolWait", poolWait, fromMillis, toMillis);
                }
                Map<String, Long> own = s.counterValues();
                Map<String, Long> ownLast = lastOwnCounters.computeIfAbsent(s.name(), n -> new LinkedHashMap<>());
                if (measuring) {
                    Map<String, Long> ownTotal = totalOwnCounters.computeIfAbsent(s.name(), n -> new java.util.TreeMap<>());
                    own.forEach((k, v) -> ownTotal.merge(k, v - ownLast.getOrDefault(k, 0L), Long::sum));
                }
                ownLast.putAll(own);
                if (measuring) {
                    cum[0].add(latency);
                    cum[1].add(service);
                    cum[2].add(poolWait);
                    countTotals(s.name(), dErrors, dRetries);
                }
                long count = latency.getTotalCount();
                phaseCounts.merge(s.name(), count, Long::sum);
                LatencySummary l = LatencySummary.of(latency);
                ops.put(s.name(), new IntervalOperation(count, count / secs, l.p50(), l.p95(), l.p99(), l.max(),
                        dErrors, dRetries, HistogramCodec.encode(latency)));
            }
            if (intervalLog != null) {
                intervalLog.flush();
            }
            Interval interval = new Interval(seconds(now), secs, phase, ops, intervalErrors, intervalRetries);
            intervals.add(interval);
            lastTick = now;
            double phaseSeconds = (now - (measuring ? measureStart : startNanos)) / 1e9;
            listener.onInterval(interval, Map.copyOf(phaseCounts), phaseSeconds);
        }

        final Map<String, long[]> totals = new LinkedHashMap<>();

        void countTotals(String name, long dErrors, long dRetries) {
            long[] t = totals.computeIfAbsent(name, n -> new long[2]);
            t[0] += dErrors;
            t[1] += dRetries;
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
                Histogram[] cum = cumulative.get(s.name());
                long[] t = totals.getOrDefault(s.name(), new long[2]);
                long count = cum[0].getTotalCount();
                list.add(new OperationResult(s.name(), count, t[0], t[1], measured > 0 ? count / measured : 0,
                        LatencySummary.of(cum[0]), HistogramCodec.encode(cum[0]), Timing.of(cum[1]),
                        Timing.of(cum[2]), Map.copyOf(totalOwnCounters.getOrDefault(s.name(), Map.of()))));
            }
            return list;
        }
    }
}

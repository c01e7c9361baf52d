package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RoleResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunnerTest {

    private static Workload<Integer> workload(Supplier<Step<Integer>> steps) {
        return new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("op");
            }

            @Override
            public ClientScript<Integer> client(int index, int clients, SplittableRandom random) {
                return steps::get;
            }
        };
    }

    private static Operation<Integer> sleeping(long millis) {
        return Operation.of("op", s -> Thread.sleep(millis));
    }

    private static RunRecord run(RunPlan plan, Workload<Integer> w, Target<Integer> t) throws InterruptedException {
        return new Runner<>(plan, w, t, RunListener.NONE, null).run();
    }

    private static OperationResult op(RunRecord r) {
        return r.operations().stream().filter(o -> o.name().equals("op")).findFirst().orElseThrow();
    }

    @Test
    void iterationsBoundEachClient() throws Exception {
        RunPlan plan = RunPlan.closedLoop(4, Duration.ofSeconds(1)).withIterations(25);
        AtomicInteger executed = new AtomicInteger();
        RunRecord r = run(plan, workload(() -> Step.now(Operation.of("op", s -> executed.incrementAndGet()))),
                SyntheticTarget.direct());
        assertEquals(100, executed.get());
        assertEquals(100, op(r).count());
        assertEquals("iterations", r.stopReason());
        assertNull(r.fatalError());
    }

    @Test
    void openLoopLatencyIsMeasuredFromTheIntendedStart() throws Exception {
        // One client can do at most 20 ops/s of a 50 ms operation; asking for 100 ops/s builds a queue, and
        // latency measured from the intended start must show it while service time stays near 50 ms.
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(1)).withRate(100).withIterations(20);
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(50))), SyntheticTarget.direct());
        OperationResult op = op(r);
        assertEquals(20, op.count());
        double serviceP50 = op.serviceTime().latencyMs().p50();
        assertTrue(serviceP50 >= 50 && serviceP50 < 200, "service time p50 " + serviceP50);
        // The 20th operation was intended at 190 ms but could start only after 19 x 50 ms = 950 ms.
        assertTrue(op.latencyMs().max() > 600, "latency max " + op.latencyMs().max() + " should include queueing");
        assertTrue(op.latencyMs().p50() > 2 * serviceP50, "latency p50 " + op.latencyMs().p50());
    }

    @Test
    void closedLoopPausesAreNotCountedAsLatency() throws Exception {
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofSeconds(1)).withIterations(5);
        RunRecord r = run(plan, workload(() -> Step.after(Duration.ofMillis(40), sleeping(5))), SyntheticTarget.direct());
        OperationResult op = op(r);
        assertEquals(10, op.count());
        assertTrue(op.latencyMs().max() < 40, "think time must not be counted: max " + op.latencyMs().max());
    }

    @Test
    void thePrimingComesBeforeTheWarmUpAndTheNamedPhasesAndIsNotMeasured() throws Exception {
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(400)).toBuilder().prime(Duration.ofMillis(300))
                .warmup(Duration.ofMillis(300)).reportEvery(Duration.ofMillis(200)).build();
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct());
        assertEquals(List.of(Phase.PRIME, Phase.WARMUP, Phase.MEASURE), r.phases().stream().map(Phase::name).toList());
        Phase prime = r.phases().get(0);
        assertTrue(!prime.isMeasured(), "the priming is not measured");
        assertEquals(0.3, prime.endSeconds(), 0.1);
        long primed = prime.operations().get("op").count();
        assertTrue(primed > 0, "the clients ran while priming");
        long measured = r.phases().get(2).operations().get("op").count();
        assertEquals(measured, op(r).count(), "the totals are the measured phase's alone");
        assertEquals(0.4, r.measuredSeconds(), 0.15);
        // A plan of named phases gets the priming ahead of them all.
        RunPlan named = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).prime(Duration.ofSeconds(1))
                .phase(new PhasePlan("baseline", Duration.ofSeconds(2), true)).build();
        assertEquals(List.of(Phase.PRIME, "baseline"), named.timeline().stream().map(PhasePlan::name).toList());
        assertEquals(Duration.ofSeconds(3), named.length());
    }

    @Test
    void warmupIsExcludedFromTotalsButVisibleInIntervals() throws Exception {
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(600)).withWarmup(Duration.ofMillis(400))
                .withReportEvery(Duration.ofMillis(200));
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct());
        long warm = r.intervals().stream().filter(i -> i.phase().equals(Phase.WARMUP))
                .mapToLong(i -> i.operations().get("op").count()).sum();
        long measured = r.intervals().stream().filter(i -> i.phase().equals(Phase.MEASURE))
                .mapToLong(i -> i.operations().get("op").count()).sum();
        assertTrue(warm > 0, "warm-up intervals recorded operations");
        assertEquals(measured, op(r).count(), "totals are the measured intervals only");
        assertEquals(List.of(Phase.WARMUP, Phase.MEASURE), r.phases().stream().map(Phase::name).toList());
        assertEquals(0.4, r.phases().get(0).endSeconds(), 0.1);
        assertEquals(0.6, r.measuredSeconds(), 0.15);
        // Interval histograms add up to the total one.
        Histogram sum = new Histogram(3);
        for (Interval i : r.intervals()) {
            if (i.phase().equals(Phase.MEASURE)) {
                sum.add(HistogramCodec.decode(i.operations().get("op").histogram()));
            }
        }
        assertEquals(HistogramCodec.decode(op(r).histogram()), sum);
    }

    @Test
    void retryableFailuresAreRetriedAndLatencySpansAllAttempts() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Operation<Integer> flaky = Operation.of("op", s -> {
            Thread.sleep(20);
            if (attempts.incrementAndGet() % 3 != 0) {
                throw new SyntheticTarget.Fault(Failure.Kind.RETRY);
            }
        });
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(5)).withIterations(4);
        RunRecord r = run(plan, workload(() -> Step.now(flaky)), SyntheticTarget.direct());
        OperationResult op = op(r);
        assertEquals(4, op.count());
        assertEquals(8, op.retries());
        assertEquals(0, op.errors());
        assertTrue(op.latencyMs().p50() >= 60, "three 20 ms attempts: " + op.latencyMs().p50());
        ErrorCount retried = r.errors().stream().filter(e -> e.errorClass().equals(ErrorCount.RETRIED)).findFirst().orElseThrow();
        assertEquals(8, retried.count());
    }

    @Test
    void countersCountCommittedOperationsOnceAndOnlyWhenMeasured() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        // Every other attempt fails with a retryable error: its counts must not land.
        Operation<Integer> flaky = Operation.observing("op", (session, attempt) -> {
            attempt.count("lines", 10);
            attempt.count("orders", 1);
            Thread.sleep(1);
            if (attempts.incrementAndGet() % 2 == 0) {
                throw new SyntheticTarget.Fault(Failure.Kind.RETRY);
            }
        });
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(400)).withReportEvery(Duration.ofMillis(100));
        RunRecord r = run(plan, workload(() -> Step.now(flaky)), SyntheticTarget.direct());
        OperationResult op = op(r);
        assertTrue(op.count() > 0 && op.retries() > 0, "operations committed and some were retried");
        assertEquals(op.count(), op.counter("orders"), "one count per committed operation, none per failed attempt");
        assertEquals(10 * op.count(), op.counter("lines"));
        assertEquals(0, op.counter("absent"));

        // With a warm-up, what committed before it ended is not counted (give or take the operations in
        // flight at the boundary, which may land on either side: on a loaded 2-core box the thread that closes the
        // interval can be held off for several 1 ms operations). Counted with the warm-up, the counter would exceed
        // the measured count by the warm-up's 300 ms of commits, about three quarters of the 400 ms measured.
        attempts.set(0);
        RunRecord warm = run(plan.withWarmup(Duration.ofMillis(300)), workload(() -> Step.now(flaky)),
                SyntheticTarget.direct());
        OperationResult w = op(warm);
        assertTrue(Math.abs(w.counter("orders") - w.count()) <= Math.max(2, w.count() / 10),
                "warm-up commits excluded: " + w.counter("orders") + " counted for " + w.count() + " measured");
    }

    @Test
    void retriesAreCappedAndThenCountedAsErrors() throws Exception {
        Operation<Integer> hopeless = Operation.of("op", s -> {
            throw new SyntheticTarget.Fault(Failure.Kind.RETRY);
        });
        RunPlan plan = RunPlan.builder().clients(1, 0).iterations(2).reportEvery(Duration.ofSeconds(1)).maxAttempts(3).seed(1).build();
        RunRecord r = run(plan, workload(() -> Step.now(hopeless)), SyntheticTarget.direct());
        assertEquals(0, op(r).count());
        assertEquals(2, op(r).errors());
        assertEquals(4, op(r).retries());
        assertNull(r.fatalError(), "giving up on a transaction does not end the run");
    }

    @Test
    void connectionLossReconnectsAndKeepsRunning() throws Exception {
        SyntheticTarget target = SyntheticTarget.direct();
        AtomicInteger calls = new AtomicInteger();
        Operation<Integer> op = Operation.of("op", s -> {
            if (calls.incrementAndGet() == 3) {
                target.refuseNextOpens(2); // the server is away for the next two connection attempts
                throw new SyntheticTarget.Fault(Failure.Kind.CONNECTION);
            }
        });
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(10)).withIterations(10);
        RunRecord r = run(plan, workload(() -> Step.now(op)), target);
        assertNull(r.fatalError());
        assertEquals(9, op(r).count(), "every operation but the one that lost its connection");
        assertEquals(1, target.broken());
        assertEquals(2, target.opened(), "one connection before the loss, one after");
        assertEquals(1, op(r).errors(), "an error is a failed operation, not a reconnect attempt");
        assertEquals(1, countOf(r, "connection"), "the lost connection ended one operation");
        assertEquals(2, countOf(r, ErrorCount.RECONNECT), "two failed reconnects, counted apart");
        assertEquals(3, op(r).reconnects(), "three attempts to re-open the session, the third succeeded");
        assertEquals(1, op(r).failed().count(), "the failed operation has a latency too");
        assertEquals(1, r.errors().stream().filter(ErrorCount::endedAnOperation).mapToLong(ErrorCount::count).sum());
    }

    private static long countOf(RunRecord r, String errorClass) {
        return r.errors().stream().filter(e -> e.errorClass().equals(errorClass)).mapToLong(ErrorCount::count).sum();
    }

    @Test
    void pooledSessionsAreBorrowedPerTransactionAndWaitIsRecorded() throws Exception {
        SyntheticTarget target = SyntheticTarget.pooled(0);
        RunPlan plan = RunPlan.closedLoop(3, Duration.ofSeconds(5)).withIterations(10);
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(1))), target);
        assertEquals(30, target.opened());
        assertEquals(30, target.released());
        assertNotNull(op(r).poolWait());
        assertEquals(30, op(r).poolWait().count());
    }

    @Test
    void aFatalErrorStopsTheRunWithItsMessage() throws Exception {
        Operation<Integer> broken = Operation.of("op", s -> {
            throw new IllegalStateException("relation \"nope\" does not exist");
        });
        RunRecord r = run(RunPlan.closedLoop(2, Duration.ofSeconds(30)), workload(() -> Step.now(broken)),
                SyntheticTarget.direct());
        assertTrue(r.failed());
        assertTrue(r.fatalError().contains("does not exist"), r.fatalError());
        assertEquals("fatal error", r.stopReason());
    }

    @Test
    void aStopRequestEndsTheRunPromptlyEvenWithClientsThinking() throws Exception {
        Runner<Integer> runner = new Runner<>(RunPlan.closedLoop(50, Duration.ofHours(1)),
                workload(() -> Step.after(Duration.ofMinutes(10), sleeping(1))), SyntheticTarget.direct(),
                RunListener.NONE, null);
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException ignored) {
                return;
            }
            runner.requestStop("interrupted");
        });
        stopper.start();
        long t0 = System.nanoTime();
        RunRecord r = runner.run();
        assertEquals("interrupted", r.stopReason());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "stop did not wait for think times");
    }

    @Test
    void aRunEndsOnTimeWithClientsWaitingOnTheirWorkers() throws Exception {
        // A worker for every client: each waits out the 10 min pause before its first operation on its worker's
        // thread, which the end must wake.
        RunPlan plan = RunPlan.closedLoop(8, Duration.ofMillis(500)).withWorkers(8);
        long t0 = System.nanoTime();
        RunRecord r = run(plan, workload(() -> Step.after(Duration.ofMinutes(10), sleeping(1))), SyntheticTarget.direct());
        assertEquals("duration", r.stopReason());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "the run's end waited for the clients' pauses");
    }

    @Test
    void theRunClosesItsProbesUnlessTheyAreLeftOpenForTheNext() throws Exception {
        AtomicInteger closedGauges = new AtomicInteger();
        AtomicInteger closedPhases = new AtomicInteger();
        GaugeProbe gauge = new GaugeProbe() {
            @Override
            public String name() {
                return "g";
            }

            @Override
            public Map<String, Long> sample() {
                return Map.of("g", 1L);
            }

            @Override
            public GaugeInfo.Kind kind() {
                return GaugeInfo.Kind.LEVEL;
            }

            @Override
            public GaugeInfo.Merge merge(String name) {
                return GaugeInfo.Merge.SERVER;
            }

            @Override
            public void close() {
                closedGauges.incrementAndGet();
            }
        };
        PhaseProbe phase = new PhaseProbe() {
            @Override
            public String name() {
                return "p";
            }

            @Override
            public Long read() {
                return 1L;
            }

            @Override
            public void close() {
                closedPhases.incrementAndGet();
            }
        };
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofMillis(200));
        new Runner<>(plan, workload(() -> Step.now(sleeping(1))), SyntheticTarget.direct(), RunListener.NONE, null,
                List.of(gauge, phase)).leavingProbesOpen().run();
        assertEquals(0, closedGauges.get() + closedPhases.get(), "left open for the run after");
        new Runner<>(plan, workload(() -> Step.now(sleeping(1))), SyntheticTarget.direct(), RunListener.NONE, null,
                List.of(gauge, phase)).run();
        assertEquals(1, closedGauges.get(), "the gauge probe closed once, at the end");
        assertEquals(1, closedPhases.get(), "the phase probe closed once, at the end");
    }

    @Test
    void everyClientRunsWhenClientsOutnumberWorkers() throws Exception {
        // 64 clients, 4 workers, no pause: a worker must hand its client back when others are due, or 60 clients
        // never run while the result says they did.
        int clients = 64;
        long[] firstStart = new long[clients];
        AtomicInteger[] executed = new AtomicInteger[clients];
        for (int i = 0; i < clients; i++) {
            executed[i] = new AtomicInteger();
        }
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("op");
            }

            @Override
            public ClientScript<Integer> client(int index, int all, SplittableRandom random) {
                return () -> Step.now(Operation.of("op", s -> {
                    if (executed[index].getAndIncrement() == 0) {
                        firstStart[index] = System.nanoTime();
                    }
                    Thread.sleep(1);
                }));
            }
        };
        RunPlan plan = RunPlan.closedLoop(clients, Duration.ofMillis(800)).withWorkers(4);
        RunRecord r = run(plan, w, SyntheticTarget.direct());
        for (int i = 0; i < clients; i++) {
            assertTrue(executed[i].get() >= 3, "client " + i + " ran " + executed[i].get() + " operations");
        }
        assertEquals(java.util.Arrays.stream(executed).mapToLong(AtomicInteger::get).sum(), op(r).count());
        // Every client was due at the start; the last to get a worker waited for 60 others, and its first latency,
        // measured from the run's start (no later than the first client's first start), must include that wait.
        long lastFirstStart = java.util.Arrays.stream(firstStart).max().orElseThrow();
        double waitedMs = (lastFirstStart - java.util.Arrays.stream(firstStart).min().orElseThrow()) / 1e6;
        assertTrue(waitedMs >= 10, "the last client waited " + waitedMs + " ms for a worker");
        assertTrue(op(r).latencyMs().max() >= waitedMs, "latency max " + op(r).latencyMs().max()
                + " ms must include the " + waitedMs + " ms a client waited for its first turn");
    }

    @Test
    void openLoopCountsWhatItCouldNotIssue() throws Exception {
        // One client can do 20 ops/s of a 50 ms operation; asked for 100 ops/s over 1 s, about 80 starts that
        // fell due are never issued. They are counted, and each waited at least until the end of the run.
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(1)).withRate(100);
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(50))), SyntheticTarget.direct());
        OperationResult op = op(r);
        long issued = op.count() + op.errors();
        assertEquals(100, issued + op.unissued(), 2, "every start due in the 1 s is accounted for: " + issued
                + " issued, " + op.unissued() + " not");
        assertTrue(op.unissued() >= 70, "unissued " + op.unissued());
        assertEquals(op.unissued(), op.unissuedLowerBound().count());
        // The last due start (at ~990 ms) waited at least ~10 ms; the first unissued one ~950 ms or more.
        assertTrue(op.unissuedLowerBound().latencyMs().max() > 800, "lower bound max "
                + op.unissuedLowerBound().latencyMs().max());
        assertEquals(1.0, r.measuredSeconds(), 0.05, "measured time ends at the deadline, not after the drain");
    }

    @Test
    void failedOperationsHaveALatency() throws Exception {
        Operation<Integer> slowTimeout = Operation.of("op", s -> {
            Thread.sleep(30);
            throw new SyntheticTarget.Fault(Failure.Kind.TIMEOUT);
        });
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(5)).withIterations(5);
        RunRecord r = run(plan, workload(() -> Step.now(slowTimeout)), SyntheticTarget.direct());
        OperationResult op = op(r);
        assertEquals(0, op.count());
        assertEquals(5, op.errors());
        assertEquals(5, op.failed().count());
        assertTrue(op.failed().latencyMs().p50() >= 30, "failed after 30 ms: " + op.failed().latencyMs().p50());
    }

    @Test
    void failedPoolBorrowsCountInPoolWaitAndBackoffResetsAfterSuccess() throws Exception {
        SyntheticTarget target = SyntheticTarget.pooled(0);
        target.refuseNextOpens(2); // the pool cannot hand out a connection twice, then recovers
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofSeconds(20)).withIterations(6);
        long t0 = System.nanoTime();
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(1))), target);
        OperationResult op = op(r);
        assertEquals(4, op.count());
        assertEquals(2, op.errors(), "two operations failed to get a connection");
        assertEquals(6, op.poolWait().count(), "failed borrows count in pool wait");
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(5).toNanos(), "two reconnect backoffs, short ones");
    }

    @Test
    void aListenerThatThrowsStopsTheRunAndIsReported() throws Exception {
        RunListener broken = new RunListener() {
            @Override
            public void onInterval(Interval interval, java.util.Map<String, Long> counts, double phaseSeconds) {
                throw new IllegalStateException("observer bug");
            }

            @Override
            public void onPhaseEnd(Phase phase) {
            }
        };
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofSeconds(30)).withReportEvery(Duration.ofMillis(100));
        long t0 = System.nanoTime();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(1))), SyntheticTarget.direct(), broken,
                null).run();
        assertTrue(r.failed());
        assertTrue(r.fatalError().contains("a run listener failed") && r.fatalError().contains("observer bug"),
                r.fatalError());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos(), "the run stopped, not 30 s later");
    }

    @Test
    void latencyAboveTheCeilingIsClampedAndCounted() {
        dev.gauntlet.core.metrics.OperationStats stats = new dev.gauntlet.core.metrics.OperationStats("op");
        stats.recordSuccess(Duration.ofHours(2).toNanos(), Duration.ofHours(2).toNanos());
        stats.recordSuccess(5_000_000, 4_000_000);
        assertEquals(1, stats.clamped());
        dev.gauntlet.core.metrics.OperationStats.Snapshot snap = stats.takeInterval();
        assertEquals(2, snap.latency().getTotalCount());
        assertEquals(2, snap.service().getTotalCount(), "latency equal to service is recorded once, counted in both");
        assertEquals(dev.gauntlet.core.metrics.LatencyRecorder.HIGHEST_TRACKABLE_NANOS,
                snap.latency().getMaxValue(), snap.latency().getMaxValue() / 1000.0);
    }

    @Test
    void twoRolesKeepTheirOwnPacing() throws Exception {
        // Writers open loop at 50 ops/s hold their rate while closed-loop readers run flat out beside them.
        Operation<Integer> write = Operation.of("write", s -> Thread.sleep(1));
        Operation<Integer> read = Operation.of("read", s -> Thread.sleep(2));
        List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Workload<Integer> queue = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("write", "read");
            }

            @Override
            public ClientScript<Integer> client(ClientId id, SplittableRandom random) {
                seen.add(id.role() + " " + id.index() + "/" + id.roleClients());
                Operation<Integer> op = id.role().equals("writers") ? write : read;
                return () -> Step.now(op);
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.openLoop("writers", 2, 50)).role(Role.closedLoop("readers", 2))
                .warmup(Duration.ofSeconds(1)).duration(Duration.ofSeconds(2)).reportEvery(Duration.ofMillis(500)).build();
        RunRecord r = new Runner<>(plan, queue, SyntheticTarget.direct(), RunListener.NONE, null).run();
        assertEquals(List.of("readers 0/2", "readers 1/2", "writers 0/2", "writers 1/2"),
                seen.stream().sorted().toList());
        dev.gauntlet.core.result.RoleResult writers = r.roles().get(0);
        dev.gauntlet.core.result.RoleResult readers = r.roles().get(1);
        assertEquals("writers", writers.name());
        assertEquals(50.0, writers.issuedPerSecond(), 2.5, "the writers kept their 50 ops/s");
        assertEquals(0, writers.unissued());
        assertTrue(readers.issuedPerSecond() > 400, "readers ran flat out: " + readers.issuedPerSecond());
        OperationResult w = r.operations().stream().filter(o -> o.name().equals("write")).findFirst().orElseThrow();
        assertTrue(w.latencyMs().p99() < 50, "writes were not queued behind the readers: p99 " + w.latencyMs().p99());
        // What a role says it issued in the measured phases is what its operations counted there (an operation at
        // the warm-up's end may fall on either side).
        OperationResult rd = r.operations().stream().filter(o -> o.name().equals("read")).findFirst().orElseThrow();
        assertEquals(w.count() + w.errors(), writers.issued(), 2, "writers");
        assertEquals(rd.count() + rd.errors(), readers.issued(), 4, "readers");
    }

    @Test
    void probesRiseIsRecordedPerPhase() throws Exception {
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        PhaseProbe committed = new PhaseProbe() {
            @Override
            public String name() {
                return "serverCount";
            }

            @Override
            public Long read() {
                return done.get();
            }
        };
        RunPlan plan = RunPlan.closedLoop(1, Duration.ofMillis(500)).withWarmup(Duration.ofMillis(300))
                .withReportEvery(Duration.ofMillis(100));
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(Operation.of("op", s -> {
            Thread.sleep(2);
            done.incrementAndGet();
        }))), SyntheticTarget.direct(), RunListener.NONE, null, List.of(committed)).run();
        Phase warmup = r.phases().get(0);
        Phase measure = r.phases().get(1);
        assertEquals(done.get(), warmup.probe("serverCount") + measure.probe("serverCount"), "the phases add up");
        // An operation ending between the interval's snapshot and the probe's read at a boundary lands on either side
        // of it; on a loaded 2-core box (a CI run on JDK 25 saw 4) a few 2 ms operations can end in that gap.
        assertEquals(op(r).count(), measure.probe("serverCount"), 10, "the measured rise is what the measured phase did");
        assertTrue(measure.probe(DriverCpu.NAME) > 0, "every run reads the driver's CPU");
    }

    @Test
    void aRunOfThreePhasesWithDisruptionsOneOfWhichFails() throws Exception {
        List<String> events = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Disruption freeze = new Disruption() {
            @Override
            public String name() {
                return "freeze";
            }

            @Override
            public void start(Log log) {
                events.add("freeze on");
                log.note("frozen");
            }

            @Override
            public void stop(Log log) {
                events.add("freeze off");
            }
        };
        Disruption broken = new Disruption() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public void start(Log log) {
                throw new IllegalStateException("no such device");
            }
        };
        Disruption never = new Disruption() {
            @Override
            public String name() {
                return "never";
            }

            @Override
            public void start(Log log) {
                events.add("never on");
            }
        };
        List<String> started = new java.util.ArrayList<>();
        RunListener phases = new RunListener() {
            @Override
            public void onInterval(Interval interval, java.util.Map<String, Long> counts, double phaseSeconds) {
            }

            @Override
            public void onPhaseEnd(Phase phase) {
            }

            @Override
            public void onPhaseStart(String phase, double startSeconds) {
                started.add(phase);
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 2))
                .phase(new PhasePlan("warmup", Duration.ofMillis(300), false))
                .phase(PhasePlan.measured("baseline", Duration.ofMillis(400)))
                .phase(PhasePlan.measured("fault", Duration.ofMillis(400)))
                .disruption(freeze, Duration.ofMillis(750), Duration.ofMillis(200))
                .disruption(broken, Duration.ofMillis(800), null)
                .disruption(never, Duration.ofSeconds(30), null)
                .reportEvery(Duration.ofSeconds(10)).build();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct(), phases,
                null).run();

        assertNull(r.fatalError(), "a failing disruption does not end the run");
        assertEquals(List.of("warmup", "baseline", "fault"), started);
        assertEquals(List.of("warmup", "baseline", "fault"), r.phases().stream().map(Phase::name).toList());
        // Intervals close exactly at each boundary, even with a 10 s reporting period.
        List<Double> ends = r.intervals().stream().map(Interval::t).toList();
        assertEquals(0.3, ends.get(0), 0.05);
        assertEquals(0.7, ends.get(1), 0.05);
        assertEquals(3, ends.size());
        assertEquals(0.8, r.measuredSeconds(), 0.1, "baseline and fault are measured, the warm-up is not");
        Phase baseline = r.phases().get(1);
        Phase fault = r.phases().get(2);
        assertTrue(baseline.isMeasured() && !r.phases().get(0).isMeasured());
        assertEquals(op(r).count(), baseline.operations().get("op").count() + fault.operations().get("op").count(),
                "the totals are the measured phases' figures");
        assertTrue(fault.operations().get("op").histogram() != null, "each phase keeps its own histogram");

        var byName = r.disruptions().stream().collect(java.util.stream.Collectors.toMap(
                dev.gauntlet.core.result.DisruptionRecord::name, d -> d));
        assertEquals("done", byName.get("freeze").outcome());
        assertEquals(0.75, byName.get("freeze").startSeconds(), 0.1);
        assertEquals(0.95, byName.get("freeze").endSeconds(), 0.1);
        assertEquals(List.of("frozen"), byName.get("freeze").notes());
        assertEquals("failed", byName.get("broken").outcome());
        assertTrue(byName.get("broken").notes().get(0).contains("no such device"), byName.get("broken").notes().toString());
        assertEquals("not started", byName.get("never").outcome());
        assertEquals(List.of("freeze on", "freeze off"), events, "switched on, then off; the late one never ran");
    }

    @Test
    void aDisruptionStillOnWhenTheRunEndsIsSwitchedOff() throws Exception {
        List<String> events = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Disruption partition = new Disruption() {
            @Override
            public String name() {
                return "partition";
            }

            @Override
            public void start(Log log) {
                events.add("on");
            }

            @Override
            public void stop(Log log) {
                events.add("off");
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).duration(Duration.ofMillis(400))
                .disruption(partition, Duration.ofMillis(100), Duration.ofMinutes(10)).build();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct(),
                RunListener.NONE, null).run();
        assertEquals(List.of("on", "off"), events, "undone at the end of the run");
        assertEquals("done", r.disruptions().get(0).outcome());
        assertEquals(0.4, r.disruptions().get(0).endSeconds(), 0.2);
    }

    @Test
    void everyDisruptionThatStartedIsUndoneAtTheEndEvenAfterItFailed() throws Exception {
        List<String> events = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        class Recorded implements Disruption {
            final String name;
            final boolean fails;

            Recorded(String name, boolean fails) {
                this.name = name;
                this.fails = fails;
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(Log log) {
                events.add(name + " start");
                if (fails) {
                    throw new IllegalStateException("exit 1");
                }
            }

            @Override
            public void undo(Log log) {
                events.add(name + " undo");
                log.note("undone");
            }
        }
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).duration(Duration.ofMillis(500))
                .disruption(new Recorded("fails", true), Duration.ofMillis(100), null)
                .disruption(new Recorded("works", false), Duration.ofMillis(200), Duration.ofMillis(100))
                .disruption(new Recorded("never", false), Duration.ofMinutes(5), null).build();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct(),
                RunListener.NONE, null).run();
        assertEquals(List.of("fails start", "works start", "fails undo", "works undo"), events,
                "undone once, at the end, only those that started");
        var byName = r.disruptions().stream().collect(java.util.stream.Collectors.toMap(
                dev.gauntlet.core.result.DisruptionRecord::name, d -> d));
        assertEquals("failed", byName.get("fails").outcome());
        assertTrue(byName.get("fails").notes().contains("undone"), byName.get("fails").toString());
        assertEquals("done", byName.get("works").outcome());
        assertEquals("not started", byName.get("never").outcome());
        assertNull(r.fatalError(), "a failing disruption does not end the run");
    }

    @Test
    void aRoleThatStartsAfterAnotherWaitsUntilEveryClientOfItIsReady() throws Exception {
        // Readers take 150 ms over their first poll (connecting, say); writers wait for all three, and their
        // open-loop schedule starts then, so no write is due, or late, before the readers are ready.
        java.util.concurrent.atomic.AtomicLong lastReaderReady = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong firstWrite = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("read", "write");
            }

            @Override
            public ClientScript<Integer> client(ClientId id, SplittableRandom random) {
                if (id.role().equals("readers")) {
                    boolean[] first = {true};
                    return () -> Step.now(Operation.of("read", s -> {
                        Thread.sleep(first[0] ? 150 : 5);
                        if (first[0]) {
                            lastReaderReady.accumulateAndGet(System.nanoTime(), Math::max);
                        }
                        first[0] = false;
                    }));
                }
                return () -> Step.now(Operation.of("write", s -> firstWrite.accumulateAndGet(System.nanoTime(), Math::min)));
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop("readers", 3))
                .role(Role.openLoop("writers", 1, 100).startingAfter("readers")).duration(Duration.ofMillis(600)).build();
        RunRecord r = run(plan, w, SyntheticTarget.direct());
        assertTrue(firstWrite.get() >= lastReaderReady.get(), "a write ran before every reader was ready");
        RoleResult writers = r.roles().get(1);
        assertEquals("readers", writers.after());
        assertEquals(0.15, writers.startedAt(), 0.1, "writers started once the readers' first polls ended");
        OperationResult write = r.operations().stream().filter(o -> o.name().equals("write")).findFirst().orElseThrow();
        assertEquals(45, write.count() + write.unissued(), 10, "100/s over the ~450 ms left after the start");
        assertTrue(write.latencyMs().max() < 100, "no write was due while the writers waited: max "
                + write.latencyMs().max() + " ms");
        assertThrows(IllegalArgumentException.class, () -> RunPlan.builder().role(Role.closedLoop("a", 1)
                .startingAfter("b")).role(Role.closedLoop("b", 1)).duration(Duration.ofSeconds(1)).build(),
                "a role waits only for one listed before it");
    }

    @Test
    void gaugeProbesAreSampledEveryIntervalAndAFailedReadIsAGap() throws Exception {
        // A probe counting its samples that fails on its 3rd read: intervals carry its latest value, and the
        // interval closed after the failed read (before the next sample) has no value rather than a stale one.
        AtomicInteger reads = new AtomicInteger();
        GaugeProbe probe = new GaugeProbe() {
            @Override
            public String name() {
                return "counting";
            }

            @Override
            public java.util.Map<String, Long> sample() {
                int n = reads.incrementAndGet();
                if (n == 3) {
                    throw new IllegalStateException("server gone");
                }
                return java.util.Map.of("samples", (long) n);
            }

            @Override
            public dev.gauntlet.core.result.GaugeInfo.Kind kind() {
                return dev.gauntlet.core.result.GaugeInfo.Kind.LEVEL;
            }

            @Override
            public dev.gauntlet.core.result.GaugeInfo.Merge merge(String gauge) {
                return dev.gauntlet.core.result.GaugeInfo.Merge.SUM;
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).duration(Duration.ofMillis(1000))
                .reportEvery(Duration.ofMillis(200)).build();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct(),
                RunListener.NONE, null, List.of(probe)).run();
        List<Long> values = r.intervals().stream().map(i -> i.gauges().get("samples")).toList();
        assertEquals(5, values.size(), values.toString());
        assertEquals(2L, values.get(0), "sampled at the start and shortly before the first close: " + values);
        assertNull(values.get(1), "the failed third read leaves a gap: " + values);
        assertEquals(4L, values.get(2), values.toString());
        assertTrue(reads.get() >= 5, "one read per interval: " + reads.get());
    }

    @Test
    void noOperationStartsAfterTheDeadlineWhenAReconnectEndsLate() throws Exception {
        // The session is lost half way through a 1 s run and reopening it takes 1 s: the pending operation, due
        // before the deadline, must not run once the session is back after it (it would count as measured work).
        AtomicInteger executions = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean reopened = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger afterReopen = new AtomicInteger();
        SyntheticTarget synthetic = SyntheticTarget.direct();
        Target<Integer> slowToReopen = new Target<>() {
            @Override
            public Integer open() throws Exception {
                if (synthetic.opened() > 0) {
                    Thread.sleep(1000);
                    reopened.set(true);
                }
                return synthetic.open();
            }

            @Override
            public void release(Integer session, boolean broken) {
                synthetic.release(session, broken);
            }

            @Override
            public boolean sessionPerTransaction() {
                return false;
            }

            @Override
            public void transact(Integer session, Operation<Integer> operation, Attempt attempt) throws Exception {
                synthetic.transact(session, operation, attempt);
            }

            @Override
            public dev.gauntlet.core.run.Failure classify(Throwable error) {
                return synthetic.classify(error);
            }

            @Override
            public void close() {
                synthetic.close();
            }
        };
        Operation<Integer> op = Operation.of("op", session -> {
            if (reopened.get()) {
                afterReopen.incrementAndGet();
            }
            if (executions.incrementAndGet() == 40) {
                throw new SyntheticTarget.Fault(Failure.Kind.CONNECTION);
            }
            Thread.sleep(10);
        });
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).duration(Duration.ofSeconds(1))
                .reportEvery(Duration.ofMillis(250)).build();
        RunRecord r = run(plan, workload(() -> Step.now(op)), slowToReopen);
        assertTrue(reopened.get(), "the session was reopened");
        assertEquals(0, afterReopen.get(), "nothing ran after the reopen, which ended past the deadline");
        assertEquals(39, r.operations().get(0).count(), "the 39 operations before the loss, nothing after");
    }

    @Test
    void aRateGaugeGivesEachIntervalItsOwnCountsSoTheMeasuredIntervalsAddUpToTheMeasuredTime() throws Exception {
        // A rate probe returning the nanoseconds elapsed since its previous call, through a warm-up and a phase
        // boundary that fall between regular ticks: the measured intervals hold exactly the measured time (nothing
        // of the warm-up, no interval counted twice, the last interval's own share), and every interval its own.
        AtomicLong last = new AtomicLong(System.nanoTime());
        GaugeProbe elapsed = new GaugeProbe() {
            @Override
            public String name() {
                return "elapsed";
            }

            @Override
            public java.util.Map<String, Long> sample() {
                long now = System.nanoTime();
                return java.util.Map.of("elapsedNanos", now - last.getAndSet(now));
            }

            @Override
            public GaugeInfo.Kind kind() {
                return GaugeInfo.Kind.RATE;
            }

            @Override
            public GaugeInfo.Merge merge(String gauge) {
                return GaugeInfo.Merge.SERVER;
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 1)).warmup(Duration.ofMillis(700))
                .duration(Duration.ofMillis(1300)).reportEvery(Duration.ofMillis(500)).build();
        RunRecord r = new Runner<>(plan, workload(() -> Step.now(sleeping(2))), SyntheticTarget.direct(),
                RunListener.NONE, null, List.of(elapsed)).run();
        long measuredNanos = Math.round(r.measuredSeconds() * 1e9);
        long gauged = r.intervals().stream().filter(i -> !Phase.WARMUP.equals(i.phase()))
                .mapToLong(i -> i.gauges().get("elapsedNanos")).sum();
        // Each read comes a little after its interval's close (the reporter snapshots the operations first, and the
        // last close follows the drain): 100 ms of slack for a loaded 2-core box, against the warm-up's 700 ms and an
        // interval's 500 ms that reading across a boundary would add.
        assertEquals(measuredNanos, gauged, 100_000_000L, "measured " + measuredNanos + " ns, the rate gauge's measured "
                + "intervals " + gauged + " ns: " + r.intervals());
        for (Interval i : r.intervals()) {
            assertEquals(i.seconds() * 1e9, i.gauges().get("elapsedNanos"), 100_000_000L, "each interval its own: " + i);
        }
        assertEquals(new GaugeInfo(GaugeInfo.Kind.RATE, GaugeInfo.Merge.SERVER), r.gauges().get("elapsedNanos").info());
    }

    @Test
    void eachRolesIssuedCountIsItsOperationsCountExactlyAcrossTheWarmupBoundary() throws Exception {
        // 20 busy readers and 10 paced writers on a 2-core box: the reporter is often descheduled between reading the
        // histograms and the counters. A role's issued count is taken from the same snapshots as its operations'.
        Workload<Integer> w = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("read", "write");
            }

            @Override
            public ClientScript<Integer> client(ClientId id, SplittableRandom random) {
                String op = id.role().equals("readers") ? "read" : "write";
                return () -> Step.now(Operation.of(op, s -> Thread.sleep(op.equals("read") ? 1 : 5)));
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop("readers", 20)).role(Role.openLoop("writers", 10, 50))
                .duration(Duration.ofSeconds(2)).warmup(Duration.ofMillis(700)).reportEvery(Duration.ofMillis(300))
                .build();
        RunRecord r = run(plan, w, SyntheticTarget.direct());
        for (RoleResult role : r.roles()) {
            OperationResult op = r.operations().stream()
                    .filter(o -> o.name().equals(role.name().equals("readers") ? "read" : "write")).findFirst().orElseThrow();
            assertEquals(op.count() + op.errors(), role.issued(), role.name());
        }
    }

    @Test
    void aDrainPhaseRunsTheReadersAloneUntilTheBacklogIsGone() throws Exception {
        AtomicLong backlog = new AtomicLong();
        Operation<Integer> write = Operation.of("write", s -> {
            Thread.sleep(1);
            backlog.incrementAndGet();
        });
        Operation<Integer> read = Operation.of("read", s -> {
            Thread.sleep(4);
            backlog.updateAndGet(n -> Math.max(0, n - 1));
        });
        Workload<Integer> queue = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("write", "read");
            }

            @Override
            public ClientScript<Integer> client(ClientId id, SplittableRandom random) {
                Operation<Integer> op = id.role().equals("writers") ? write : read;
                return () -> Step.now(op);
            }
        };
        List<Long> backlogWhenAsked = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Condition drained = inPhase -> {
            backlogWhenAsked.add(backlog.get());
            return backlog.get() == 0;
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop("writers", 2)).role(Role.closedLoop("readers", 2))
                .phase(PhasePlan.measured("measure", Duration.ofMillis(500)))
                .phase(new PhasePlan("drain", Duration.ofSeconds(20), false).onlyRoles("readers").until(drained))
                .reportEvery(Duration.ofSeconds(10)).build();
        long start = System.nanoTime();
        RunRecord r = run(plan, queue, SyntheticTarget.direct());
        double took = (System.nanoTime() - start) / 1e9;

        assertEquals(List.of("measure", "drain"), r.phases().stream().map(Phase::name).toList());
        Phase drain = r.phases().get(1);
        assertTrue(backlogWhenAsked.get(0) > 0, "the writers left a backlog: " + backlogWhenAsked.get(0));
        assertEquals(0, backlog.get(), "the readers read it all");
        assertTrue(took < 15, "the phase ended on its condition, well before its 20 s limit: " + took + " s");
        assertEquals(drain.endSeconds(), r.intervals().get(r.intervals().size() - 1).t(), 0.2,
                "the last interval ends with the drain");
        var drainWrites = drain.operations().get("write");
        // Writers stop at the boundary by the clock: at most the write each had in flight then lands in the drain.
        assertTrue(drainWrites == null || drainWrites.count() <= 2, "no writer runs in the drain: " + drainWrites);
        assertTrue(drain.operations().get("read").count() > 0, "the readers do");
        assertEquals(0.5, r.measuredSeconds(), 0.1, "the drain is not measured");
    }

    /**
     * A condition on the run's figures: it hears every interval from the start (the phase before its own too) and
     * ends its phase; the phase after moves up, and a disruption planned in it starts at its time within that phase,
     * not at the instant the fixed timeline had for it.
     */
    @Test
    void aConditionHearsTheIntervalsAndTheDisruptionsOfLaterPhasesMoveUpWithThem() throws Exception {
        List<String> heard = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        AtomicLong runsStarted = new AtomicLong();
        Condition afterTwoOfItsOwn = new Condition() {
            @Override
            public boolean holds(Duration inPhase) {
                return heard.stream().filter("wait"::equals).count() >= 2;
            }

            @Override
            public void observe(Interval closed) {
                heard.add(closed.phase());
            }

            @Override
            public void runStarts() {
                runsStarted.incrementAndGet();
                heard.clear();
            }
        };
        List<Double> startedAt = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        long runStart = System.nanoTime();
        Disruption mark = new Disruption() {
            @Override
            public String name() {
                return "mark";
            }

            @Override
            public void start(Log log) {
                startedAt.add((System.nanoTime() - runStart) / 1e9);
            }
        };
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(Role.CLIENTS, 2))
                .phase(PhasePlan.measured("before", Duration.ofMillis(300)))
                .phase(new PhasePlan("wait", Duration.ofSeconds(20), true).until(afterTwoOfItsOwn))
                .phase(PhasePlan.measured("after", Duration.ofMillis(800)))
                // 400 ms into "after" as planned: 20.7 s from the start if "wait" ran its whole length.
                .disruption(mark, Duration.ofMillis(300 + 20_000 + 400), null)
                .reportEvery(Duration.ofMillis(100)).build();
        RunRecord r = run(plan, workload(() -> Step.now(sleeping(1))), SyntheticTarget.direct());

        assertEquals(1, runsStarted.get(), "told once that its run begins");
        assertEquals("before", heard.get(0), "it hears the phases before its own");
        assertEquals(List.of("before", "wait", "after"), r.phases().stream().map(Phase::name).toList());
        Phase wait = r.phases().get(1);
        assertTrue(wait.endSeconds() - wait.startSeconds() < 5, "the wait ended on its condition: " + wait);
        Phase after = r.phases().get(2);
        var record = r.disruptions().get(0);
        assertEquals("done", record.outcome(), record.toString());
        assertEquals(after.startSeconds() + 0.4, record.startSeconds(), 0.15,
                "400 ms into the phase, wherever it now begins; the phase began at " + after.startSeconds());
        assertEquals(after.startSeconds() + 0.4, startedAt.get(0), 0.2);
    }
}

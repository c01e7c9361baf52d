package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.RunSpec;
import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A priming that lasts until the schedule has caught up leaves no backlog to the measured phase. */
class ScheduleCaughtUpTest {

    @TempDir
    Path tmp;

    /**
     * One server, cold for its first 400 ms (20 ms an operation) and then 2 ms an operation: at 400/s the schedule
     * falls some 150 operations behind while it is cold and needs about 1.5 s more to catch up.
     */
    private static Workload<Integer> coldServer() {
        Object server = new Object();
        AtomicLong first = new AtomicLong();
        return Workload.repeating(Operation.of("op", s -> {
            synchronized (server) {
                long now = System.nanoTime();
                first.compareAndSet(0, now);
                Thread.sleep(now - first.get() < 400_000_000L ? 20 : 2);
            }
        }));
    }

    private RunResult run(String dir, Duration prime, Condition until) {
        RunPlan plan = RunPlan.builder().clients(4, 400).duration(Duration.ofSeconds(1)).prime(prime, until)
                .reportEvery(Duration.ofMillis(250)).build();
        return new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .run(RunSpec.of(plan, coldServer(), SyntheticTarget.direct()).out(tmp.resolve(dir)));
    }

    private static double p99(RunResult r) {
        return r.operation("op").orElseThrow().latencyMs().p99();
    }

    @Test
    void theMeasuredPhaseBeginsWithTheScheduleCaughtUp() {
        // A fixed half-second priming hands the cold start's backlog to the measured phase: the loss this prevents.
        RunResult fixed = run("fixed", Duration.ofMillis(500), null);
        assertTrue(p99(fixed) > 50, "the backlog is measured after a fixed priming: p99 " + p99(fixed) + " ms");
        ScheduleCaughtUp caughtUp = new ScheduleCaughtUp();
        RunResult waited = run("caught-up", Duration.ofSeconds(5), caughtUp);
        assertTrue(caughtUp.caughtUp(), "caught up at the priming's end: " + caughtUp.lastLag());
        assertTrue(p99(waited) < 50, "no backlog measured after the priming caught up: p99 " + p99(waited) + " ms");
        assertTrue(String.valueOf(waited.parameters().get("primeEnded")).startsWith("after "),
                "the priming ended when the schedule caught up, before its limit: " + waited.parameters());
        // The most the schedule fell behind in the measured phase, and --slo 'lag <= 100ms' judged on it.
        Objective lag = Objective.parse("lag <= 100ms");
        assertTrue(lag(fixed) > 100, "the fixed priming's backlog, measured: " + lag(fixed) + " ms");
        assertFalse(lag.judge(fixed).met());
        assertTrue(lag(waited) < 50, "nothing behind after the caught-up priming: " + lag(waited) + " ms");
        assertTrue(lag.judge(waited).met());
        RunResult closed = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .run(RunSpec.of(RunPlan.closedLoop(2, Duration.ofMillis(300)), coldServer(), SyntheticTarget.direct())
                        .out(tmp.resolve("closed")));
        assertFalse(closed.metrics().containsKey(Objective.SCHEDULE_LAG), "a closed loop has no schedule");
        assertEquals("not measured: a closed-loop run has no schedule to fall behind (give it --rate)",
                lag.judge(closed).value());
    }

    private static double lag(RunResult r) {
        return r.metrics().get(Objective.SCHEDULE_LAG);
    }

    @Test
    void aScheduleThatNeverCatchesUpSaysSoAtTheEndOfItsPhase() {
        // 400/s against a server that takes 20 ms an operation all along: 50/s. The priming ends at its limit, behind.
        ScheduleCaughtUp caughtUp = new ScheduleCaughtUp();
        Object server = new Object();
        Workload<Integer> slow = Workload.repeating(Operation.of("op", s -> {
            synchronized (server) {
                Thread.sleep(20);
            }
        }));
        RunPlan plan = RunPlan.builder().clients(4, 400).duration(Duration.ofMillis(300))
                .prime(Duration.ofMillis(700), caughtUp).reportEvery(Duration.ofMillis(250)).build();
        new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .run(RunSpec.of(plan, slow, SyntheticTarget.direct()).out(tmp.resolve("slow")));
        assertFalse(caughtUp.caughtUp(), "behind when the priming ended");
        assertTrue(caughtUp.lastLag().toMillis() > 300, "by most of the priming: " + caughtUp.lastLag());
    }
}

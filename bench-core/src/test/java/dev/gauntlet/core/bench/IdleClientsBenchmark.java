package dev.gauntlet.core.bench;

import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Workload;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Clients that spend most of their life thinking, on a bounded set of worker threads and a pool of sessions: waiting
 * clients hold neither. Reported per run: completed operations, the throughput the think times imply (clients / mean
 * cycle), the p99 latency from intended start (which grows when the runner falls behind its schedule) beside the p99
 * of the operations' own time, operations never issued, and heap used after the run.
 *
 * <p>Not measured: a database. The operation sleeps {@code operationMicros} on a borrowed session (0: returns at
 * once), so what is measured is the runner's own capacity to keep the clients' schedules. Two think-time models:
 * {@code exponential} (mean 2 s, negative-exponential) and {@code tpcc} (TPC-C's terminals: a deck of 10 New-Order,
 * 10 Payment and one each of Order-Status, Delivery and Stock-Level, keying 18/3/2/2/2 s and mean think times
 * 12/12/10/5/5 s, negative-exponential truncated at ten times the mean, as bench-tpcc's TransactionType and Terminal;
 * a 21 s mean cycle, so 100,000 terminals ask 4,760 transactions a second).
 *
 * <pre>{@code
 * # the runner's limit: no operation time, sessions never the bottleneck, clients raised until it falls behind
 * java -cp ... org.openjdk.jmh.Main IdleClientsBenchmark -p clients=100000 -p sessions=1024 -p operationMicros=0
 * java -cp ... org.openjdk.jmh.Main IdleClientsBenchmark -p clients=100000 -p think=tpcc -p sessions=256
 * }</pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class IdleClientsBenchmark {

    @Param("10000")
    int clients;

    @Param("20")
    int seconds;

    /** Sessions in the pool: a 1 ms operation on 16 caps the run at 16,000 a second, whatever the runner can do. */
    @Param("16")
    int sessions;

    /** How long one operation holds its session, in microseconds; 0: no time at all. */
    @Param("1000")
    int operationMicros;

    @Param("64")
    int workers;

    /** {@code exponential} (mean 2 s) or {@code tpcc} (TPC-C's keying and think times). */
    @Param("exponential")
    String think;

    /** Counters JMH prints beside the time, per iteration. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Figures {
        public long operations;
        public double opsPerSecond;
        public double expectedOpsPerSecond;
        public double p50LatencyMs;
        public double p99LatencyMs;
        public double p99ServiceMs;
        public long unissued;
        public double heapUsedMb;
        public long threads;

        @Setup(Level.Iteration)
        public void clear() {
            operations = 0;
        }
    }

    static final double MEAN_THINK_SECONDS = 2.0;
    /** TPC-C's deck (clause 5.2.4.2), keying times (5.2.5.7) and mean think times, per transaction type. */
    static final int[] TPCC_CARDS = {10, 10, 1, 1, 1};
    static final double[] TPCC_KEYING = {18, 3, 2, 2, 2};
    static final double[] TPCC_THINK = {12, 12, 10, 5, 5};

    @Benchmark
    public void thinkingClients(Figures f) throws Exception {
        long operationNanos = operationMicros * 1000L;
        Operation<Integer> op = Operation.of("work", s -> {
            if (operationNanos > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(operationNanos);
            }
        });
        boolean tpcc = "tpcc".equals(think);
        if (!tpcc && !"exponential".equals(think)) {
            throw new IllegalArgumentException("think is exponential or tpcc, not " + think);
        }
        Workload<Integer> workload = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("work");
            }

            @Override
            public ClientScript<Integer> client(int index, int count, SplittableRandom random) {
                if (!tpcc) {
                    return () -> new Step<>(op, (long) (-Math.log(1 - random.nextDouble()) * MEAN_THINK_SECONDS * 1e9));
                }
                return () -> {
                    int card = random.nextInt(23);
                    int type = 0;
                    while (card >= TPCC_CARDS[type]) {
                        card -= TPCC_CARDS[type++];
                    }
                    double thinking = Math.min(-Math.log(1 - random.nextDouble()) * TPCC_THINK[type],
                            10 * TPCC_THINK[type]);
                    return new Step<>(op, (long) ((TPCC_KEYING[type] + thinking) * 1e9));
                };
            }
        };
        RunPlan plan = RunPlan.closedLoop(clients, Duration.ofSeconds(seconds)).withWorkers(workers)
                .withReportEvery(Duration.ofSeconds(5));
        RunRecord r = new Runner<>(plan, workload, SyntheticTarget.pooled(sessions), RunListener.NONE, null).run();
        f.operations = r.operations().get(0).count();
        f.opsPerSecond = r.operations().get(0).opsPerSecond();
        f.expectedOpsPerSecond = clients / (tpcc ? meanTpccCycle() : MEAN_THINK_SECONDS);
        f.p50LatencyMs = r.operations().get(0).latencyMs().p50();
        f.p99LatencyMs = r.operations().get(0).latencyMs().p99();
        f.p99ServiceMs = r.operations().get(0).serviceTime() == null ? 0
                : r.operations().get(0).serviceTime().latencyMs().p99();
        f.unissued = r.operations().get(0).unissued();
        f.threads = Thread.activeCount();
        System.gc();
        f.heapUsedMb = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    /** Seconds a TPC-C terminal's cycle lasts on average: keying plus mean think, over the deck. */
    static double meanTpccCycle() {
        double sum = 0;
        for (int t = 0; t < TPCC_CARDS.length; t++) {
            sum += TPCC_CARDS[t] * (TPCC_KEYING[t] + TPCC_THINK[t]);
        }
        return sum / 23;
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(new String[] {IdleClientsBenchmark.class.getSimpleName()});
    }
}

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
 * 10,000 clients that spend most of their life thinking (mean 2 s, negative-exponential, like TPC-C
 * terminals) run in one JVM with a 512 MB heap, on a bounded set of worker threads and a pool of 16
 * sessions: waiting clients hold neither. Reported per run: completed operations, the throughput the think
 * times imply (clients / mean think), the p99 latency from intended start (which grows if the runner falls
 * behind its schedule), and heap used after the run.
 *
 * <p>Not measured: a database. The operation is a 1 ms sleep on a borrowed session, so the figure is the
 * runner's own capacity to keep 10,000 schedules.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
public class IdleClientsBenchmark {

    @Param("10000")
    int clients;

    @Param("20")
    int seconds;

    /** Counters JMH prints beside the time, per iteration. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Figures {
        public long operations;
        public double opsPerSecond;
        public double expectedOpsPerSecond;
        public double p99LatencyMs;
        public double heapUsedMb;
        public long threads;

        @Setup(Level.Iteration)
        public void clear() {
            operations = 0;
        }
    }


    static final double MEAN_THINK_SECONDS = 2.0;

    @Benchmark
    public void thinkingClients(Figures f) throws Exception {
        Operation<Integer> op = Operation.of("work", s -> Thread.sleep(1));
        Workload<Integer> workload = new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of("work");
            }

            @Override
            public ClientScript<Integer> client(int index, int count, SplittableRandom random) {
                return () -> new Step<>(op, (long) (-Math.log(1 - random.nextDouble()) * MEAN_THINK_SECONDS * 1e9));
            }
        };
        RunPlan plan = RunPlan.closedLoop(clients, Duration.ofSeconds(seconds)).withWorkers(64)
                .withReportEvery(Duration.ofSeconds(5));
        RunRecord r = new Runner<>(plan, workload, SyntheticTarget.pooled(16), RunListener.NONE, null).run();
        f.operations = r.operations().get(0).count();
        f.opsPerSecond = r.operations().get(0).opsPerSecond();
        f.expectedOpsPerSecond = clients / MEAN_THINK_SECONDS;
        f.p99LatencyMs = r.operations().get(0).latencyMs().p99();
        f.threads = Thread.activeCount();
        System.gc();
        f.heapUsedMb = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(new String[] {IdleClientsBenchmark.class.getSimpleName()});
    }
}

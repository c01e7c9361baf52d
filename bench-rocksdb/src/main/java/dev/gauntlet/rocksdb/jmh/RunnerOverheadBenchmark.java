package dev.gauntlet.rocksdb.jmh;

import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Workload;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Measures what the core runner adds to each operation of a {@code fill}: one client running {@code num}
 * zero-pause steps whose operation does nothing (a counter increment), exactly as {@code FillWorkload} hands
 * them out (one reused {@link Step}). The score is the time of the whole run; per step = score / num. Includes
 * the runner's clock reads, script call, latency and service-time recording and the reporter thread's
 * interval work; excludes RocksDB. It does not measure multi-client contention or open-loop scheduling.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class RunnerOverheadBenchmark {

    @Param({"1000000"})
    public long num;

    private long executed;

    @Benchmark
    public long run() throws InterruptedException {
        Operation<Integer> nothing = Operation.of("nothing", s -> executed++);
        Workload<Integer> workload = Workload.repeating(nothing);
        RunPlan plan = RunPlan.builder().clients(1, 0).iterations(num).maxAttempts(1).build();
        RunRecord record = new Runner<>(plan, workload, SyntheticTarget.direct(), RunListener.NONE, null).run();
        return record.operations().get(0).count() + executed;
    }

    /** Runs this class from an IDE; JMH's own options are accepted. */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        new org.openjdk.jmh.runner.Runner(new OptionsBuilder().parent(new CommandLineOptions(args))
                .include(RunnerOverheadBenchmark.class.getName()).build()).run();
    }
}

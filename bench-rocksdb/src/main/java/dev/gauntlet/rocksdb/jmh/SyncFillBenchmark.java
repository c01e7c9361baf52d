package dev.gauntlet.rocksdb.jmh;

import dev.gauntlet.rocksdb.fill.FillOrder;
import dev.gauntlet.rocksdb.fill.FillSettings;
import dev.gauntlet.rocksdb.fill.WalSettings;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Measures one fill of {@code num} puts with {@code sync=true} (every write fsyncs the WAL), with
 * {@code manual_wal_flush} false and true. A synced write flushes RocksDB's WAL buffer and syncs whatever the
 * option says, so the two should be indistinguishable, and bounded by the file system's fdatasync latency
 * (compare {@code bench-rocksdb fsync-latency}). {@code num} is smaller than in {@link AsyncFillBenchmark}
 * because each put costs an fsync. Same keys, values, single-shot iterations and fresh database per
 * iteration as there.
 *
 * <p>It does not measure group commit with several writers (one thread), reads, or closing the database.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class SyncFillBenchmark {

    @Param({"fillseq", "fillrandom"})
    public String benchmark;

    @Param({"false", "true"})
    public boolean manualWalFlush;

    @Param({"20000"})
    public long num;

    private FreshFill fill;
    private long iteration;

    @Setup(Level.Iteration)
    public void createDatabase() {
        fill = new FreshFill(FillSettings.defaults(FillOrder.ofBenchmark(benchmark), num,
                WalSettings.autoFlush().withManualWalFlush(manualWalFlush).synced()), 301 + iteration++);
    }

    @Benchmark
    public void fill(WalCounters counters) throws Exception {
        counters.add(num, fill.fill());
    }

    @TearDown(Level.Iteration)
    public void closeDatabase() {
        fill.close();
    }

    /** Runs this class from an IDE; JMH's own options (e.g. {@code -p num=5000 -rf json}) are accepted. */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        new Runner(new OptionsBuilder().parent(new CommandLineOptions(args))
                .include(SyncFillBenchmark.class.getName()).build()).run();
    }
}

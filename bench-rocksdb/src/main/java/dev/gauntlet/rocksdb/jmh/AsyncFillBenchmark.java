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
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;

/**
 * Measures one fill of {@code num} puts (16-byte keys, 100-byte values compressible to 0.5, one thread,
 * no compression) with {@code sync=false}: the WAL with automatic flush (every put's record handed to the OS
 * at once), with {@code manual_wal_flush=true} (records stay in RocksDB's 1 MiB buffer until it fills; nobody
 * calls FlushWAL, as in db_bench), and with {@code disableWAL} (the lower bound: what the fill costs without a
 * WAL). Every iteration is one single-shot fill on a database created for it; the score is the time of the
 * whole fill, and micros/op = score / num ({@code bench-rocksdb jmh-table} does that arithmetic).
 *
 * <p>It does not measure durability (see {@code bench-rocksdb durability}), reads, compaction after the fill,
 * or closing the database (memtable flush at close is outside the timed region).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class AsyncFillBenchmark {

    @Param({"fillseq", "fillrandom"})
    public String benchmark;

    @Param({"wal", "manual_wal_flush", "disableWAL"})
    public String wal;

    @Param({"1000000"})
    public long num;

    private FreshFill fill;
    private long iteration;

    @Setup(Level.Iteration)
    public void createDatabase() {
        WalSettings walSettings = switch (wal) {
            case "wal" -> WalSettings.autoFlush();
            case "manual_wal_flush" -> WalSettings.manualFlush();
            case "disableWAL" -> WalSettings.disabled();
            default -> throw new IllegalArgumentException("wal must be wal, manual_wal_flush or disableWAL, not " + wal);
        };
        fill = new FreshFill(FillSettings.defaults(FillOrder.ofBenchmark(benchmark), num, walSettings), 301 + iteration++);
    }

    @Benchmark
    public void fill(WalCounters counters) throws Exception {
        counters.add(num, fill.fill());
    }

    @TearDown(Level.Iteration)
    public void closeDatabase() {
        fill.close();
    }

    /** Runs this class from an IDE; JMH's own options (e.g. {@code -p num=100000 -rf json}) are accepted. */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        new Runner(new OptionsBuilder().parent(new CommandLineOptions(args))
                .include(AsyncFillBenchmark.class.getName()).build()).run();
    }
}

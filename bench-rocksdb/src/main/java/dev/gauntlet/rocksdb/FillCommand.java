package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.DurationConverter;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.OutputDirectory;
import dev.gauntlet.core.cli.ResultOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.rocksdb.fill.Compression;
import dev.gauntlet.rocksdb.fill.DbBenchProcess;
import dev.gauntlet.rocksdb.fill.FillOrder;
import dev.gauntlet.rocksdb.fill.FillSeries;
import dev.gauntlet.rocksdb.fill.FillSettings;
import dev.gauntlet.rocksdb.fill.FlushWalPolicy;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import dev.gauntlet.rocksdb.fill.WalSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fill}: db_bench's fillseq/fillrandom on the core runner, repeated on fresh databases. */
@Command(name = "fill", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fills fresh RocksDB databases like db_bench's fillseq/fillrandom, through RocksJava with direct "
                + "ByteBuffers, on Gauntlet's runner: every put is timed into an HdrHistogram.",
                "Prints each run in db_bench's format, then [AVG n runs] with a 95%% confidence interval and "
                        + "[MEDIAN n runs]; writes result.json, report.md and intervals.hlog per run, a combined "
                        + "result per benchmark and db_bench.md (side by side with db_bench when compared)."},
        footer = {"", "Examples:",
                "  bench-rocksdb fill --benchmarks fillseq,fillrandom --num 1000000 --manual-wal-flush --repeat 5",
                "  bench-rocksdb fill --num 20000 --sync --repeat 5    # sync: every put fsyncs the WAL",
                "  bench-rocksdb fill --num 1000000 --manual-wal-flush --compare-db-bench   # db_bench on the PATH"})
public final class FillCommand implements Callable<Integer> {

    @Option(names = "--benchmarks", paramLabel = "LIST", split = ",", defaultValue = "fillseq",
            description = "Comma-separated: fillseq (keys in order), fillrandom (uniform keys, with replacement) "
                    + "(default: ${DEFAULT-VALUE}).")
    List<String> benchmarks;

    @Option(names = "--num", paramLabel = "N", defaultValue = "1000000",
            description = "Puts per run, split across --threads (default: ${DEFAULT-VALUE}).")
    long num;

    @Option(names = "--sync", description = "WriteOptions.sync: fsync the WAL on every put (default: false).")
    boolean sync;

    @Option(names = "--manual-wal-flush",
            description = "Options.manual_wal_flush: keep WAL records in RocksDB's buffer until it fills or FlushWAL "
                    + "is called (default: false).")
    boolean manualWalFlush;

    @Option(names = "--disable-wal", description = "WriteOptions.disableWAL: no WAL at all (default: false).")
    boolean disableWal;

    @Option(names = "--flush-wal", paramLabel = "never|every:N|end", defaultValue = "never",
            description = "Call FlushWAL: never (like db_bench), every:N puts per thread (FlushWAL(false), timed as "
                    + "its own operation), or at the end (FlushWAL(true) before closing, untimed) "
                    + "(default: ${DEFAULT-VALUE}).")
    String flushWal;

    @Option(names = "--compression", paramLabel = "none|snappy|lz4|zstd", defaultValue = "none",
            description = "SST block compression (default: ${DEFAULT-VALUE}; db_bench's own default is snappy).")
    Compression compression;

    @Option(names = "--compression-ratio", paramLabel = "R", defaultValue = "0.5",
            description = "Values compress to this fraction of their size, as db_bench's (default: ${DEFAULT-VALUE}).")
    double compressionRatio;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Runs per benchmark, each on a fresh database (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
            description = "Writer threads; each does an equal share of --num, fillseq's threads on consecutive key "
                    + "ranges (default: ${DEFAULT-VALUE}). db_bench's threads each do the whole --num, so "
                    + "--compare-db-bench gives it --num/T.")
    int threads;

    @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "100",
            description = "Value size (default: ${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--key-size", paramLabel = "BYTES", defaultValue = "16",
            description = "Key size: 8-byte big-endian key number padded with '0', as db_bench (default: ${DEFAULT-VALUE}).")
    int keySize;

    @Option(names = "--statistics", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "RocksDB Statistics (WAL bytes, syncs, stalls) in the result; --no-statistics turns them off "
                    + "(default: on; db_bench gets the same setting when compared).")
    boolean statistics;

    @Option(names = "--compare-db-bench",
            description = "Also run db_bench with the same settings, one fresh database per run, interleaved with "
                    + "ours, and report both side by side with the JNI overhead.")
    boolean compareDbBench;

    @Option(names = "--db-bench", paramLabel = "PATH", defaultValue = "db_bench",
            description = "The db_bench executable (default: ${DEFAULT-VALUE} on the PATH; Debian: rocksdb-tools).")
    String dbBenchCommand;

    @Option(names = "--db", paramLabel = "DIR",
            description = "Where the databases are created (default: a new directory under java.io.tmpdir). "
                    + "Put it on the file system you want to measure.")
    Path db;

    @Option(names = "--keep-db", description = "Keep each run's database instead of deleting it after the run.")
    boolean keepDb;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (default: results/rocksdb-fill-<timestamp>); one subdirectory per benchmark.")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of fillrandom's keys (default: a new one, recorded).")
    Long seed;

    @Option(names = "--report-every", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "10s",
            description = "Progress line period (default: ${DEFAULT-VALUE}).")
    Duration reportEvery;

    @Mixin
    ResultOptions results = new ResultOptions();

    @Spec
    CommandSpec spec;

    private final PrintStream console;

    public FillCommand() {
        this(System.out);
    }

    FillCommand(PrintStream console) {
        this.console = console;
    }

    @Override
    public Integer call() throws IOException {
        if (repeat < 1) {
            throw new BadInputException("--repeat must be at least 1 (got " + repeat + ")");
        }
        if (reportEvery.isZero() || reportEvery.isNegative()) {
            throw new BadInputException("--report-every must be positive");
        }
        List<FillOrder> orders = new ArrayList<>();
        for (String b : new LinkedHashSet<>(benchmarks)) {
            orders.add(FillOrder.ofBenchmark(b));
        }
        FlushWalPolicy policy = FlushWalPolicy.parse(flushWal);
        WalSettings wal = WalSettings.autoFlush().withSync(sync).withManualWalFlush(manualWalFlush)
                .withWalDisabled(disableWal);
        if (disableWal && policy.kind() != FlushWalPolicy.Kind.NEVER) {
            throw new BadInputException("--flush-wal " + policy + " has no WAL to flush with --disable-wal; drop one of them");
        }
        FillSettings base = new FillSettings(orders.get(0), num, keySize, valueSize, threads, wal, policy, compression,
                compressionRatio, statistics);
        DbBenchProcess dbBench = compareDbBench ? DbBenchProcess.locate(dbBenchCommand) : null;
        if (dbBench != null && policy.kind() != FlushWalPolicy.Kind.NEVER) {
            throw new BadInputException("--compare-db-bench needs --flush-wal never: db_bench never calls FlushWAL, "
                    + "so the comparison would not be like for like");
        }
        Path outDir = OutputDirectory.check(out != null ? out : OutputDirectory.defaultFor("rocksdb-fill", null));
        for (FillOrder o : orders) {
            OutputDirectory.check(outDir.resolve(o.benchmark()));
        }
        long runSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2);
        Path dbRoot = db != null ? db : Files.createTempDirectory("gauntlet-rocksdb-");
        Benchmark benchmark = Benchmark.of(spec, "rocksdb-fill", console).keeping(results);
        FillSeries series = new FillSeries(benchmark, reportEvery, console);
        List<Check> failed = new ArrayList<>();
        try {
            for (FillOrder o : orders) {
                FillSeries.Figures f = series.run(base.withOrder(o), repeat, dbRoot.resolve(o.benchmark()), keepDb,
                        outDir.resolve(o.benchmark()), runSeed, dbBench);
                f.combined().checks().stream().filter(c -> c.status() == Check.Status.FAIL).forEach(failed::add);
            }
        } finally {
            if (!keepDb && db == null) {
                RocksDbStore.delete(dbRoot);
            }
        }
        console.println("Seed: " + runSeed + "  Output: " + outDir);
        if (!failed.isEmpty()) {
            throw new RunFailedException("check failed: " + failed.get(0).name() + " (" + failed.get(0).detail() + ")");
        }
        return ExitCode.OK;
    }
}

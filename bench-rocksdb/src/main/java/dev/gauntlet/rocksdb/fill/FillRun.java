package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.RunSpec;
import dev.gauntlet.core.cli.Provenance;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.rocksdb.dbbench.RunLine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One fill on a fresh database, through the core runner: the runner times every put into an HdrHistogram
 * and writes result.json, report.md and the interval log; afterwards (untimed) the fill calls
 * {@code FlushWAL(true)} if asked to, reads RocksDB's statistics, closes the database, reopens it and counts
 * its keys. The per-run db_bench line is computed from the runner's measured time and put count.
 */
public final class FillRun {

    private final Benchmark benchmark;
    private final Duration reportEvery;

    public FillRun(Benchmark benchmark, Duration reportEvery) {
        this.benchmark = benchmark;
        this.reportEvery = reportEvery;
    }

    /** The RocksDB version of the loaded JNI library, e.g. {@code 11.8.1}. */
    public static String rocksDbVersion() {
        RocksDB.loadLibrary();
        return RocksDB.rocksdbVersion().toString();
    }

    public RunResult run(FillSettings settings, Path dbDir, Path outDir, long seed, int index, int repeat) {
        CompressibleValues values = new CompressibleValues(settings.valueSize(), settings.compressionRatio(), 301);
        FillWorkload workload = new FillWorkload(settings);
        RunPlan plan = RunPlan.builder().clients(settings.threads(), 0).iterations(workload.stepsPerClient())
                .reportEvery(reportEvery).maxAttempts(1).seed(seed).build();
        try (RocksDbStore store = RocksDbStore.create(dbDir, settings)) {
            return benchmark.run(RunSpec.of(plan, workload, new RocksDbTarget(store, settings, values))
                    .variant(settings.order().benchmark() + " " + settings.wal().label())
                    .parameters(parameters(settings, dbDir, index, repeat))
                    .environment(Provenance.environment("RocksDB " + rocksDbVersion() + " (rocksdbjni)", dbDir.toString()))
                    .out(outDir).finish(r -> finish(r, settings, store)));
        }
    }

    /** The run in db_bench's format. */
    public static RunLine line(FillSettings settings, RunResult r) {
        long puts = r.operation(FillWorkload.PUT).map(o -> o.count()).orElse(0L);
        return RunLine.of(settings.order().benchmark(), puts, r.measuredSeconds(), settings.threads(),
                settings.bytesPerPut());
    }

    private static Map<String, Object> parameters(FillSettings s, Path dbDir, int index, int repeat) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("benchmark", s.order().benchmark());
        p.put("num", s.num());
        p.put("threads", s.threads());
        p.put("keySize", s.keySize());
        p.put("valueSize", s.valueSize());
        p.put("compression", s.compression().dbBenchName());
        p.put("compressionRatio", s.compressionRatio());
        p.put("sync", s.wal().sync());
        p.put("manualWalFlush", s.wal().manualWalFlush());
        p.put("disableWal", s.wal().disableWal());
        p.put("flushWal", s.flushWal().toString());
        p.put("statistics", s.statistics());
        p.put("rocksdbVersion", rocksDbVersion());
        p.put("run", index + " of " + repeat);
        p.put("dbDir", dbDir.toString());
        // A fresh directory per run (under a new temporary one by default): it names this run, not the test.
        p.put(dev.gauntlet.core.result.Conditions.DRAWN, "dbDir");
        return p;
    }

    /** After the runner: final FlushWAL, statistics, close, reopen and count; adds metrics and checks. */
    private static RunResult finish(RunResult r, FillSettings settings, RocksDbStore store) {
        Metrics metrics = Metrics.of(r);
        List<Check> checks = new ArrayList<>(r.checks());
        if (settings.flushWal().kind() == FlushWalPolicy.Kind.END) {
            long start = System.nanoTime();
            try {
                store.flushWal(true);
            } catch (RocksDBException e) {
                throw new IllegalStateException("FlushWAL(true) at the end failed: " + e.getMessage(), e);
            }
            metrics.add("endFlushWalMs", (System.nanoTime() - start) / 1e6, MetricInfo.lower());
        }
        long puts = r.operation(FillWorkload.PUT).map(o -> o.count()).orElse(0L);
        WalStatistics stats = store.walStatistics();
        store.close();
        long keys = RocksDbStore.countKeys(store.dir());
        RunLine line = line(settings, r);
        metrics.add("opsPerSecond", puts / Math.max(r.measuredSeconds(), 1e-9), MetricInfo.higher().addsUp());
        metrics.add("microsPerOp", line.microsPerOp(), MetricInfo.lower());
        metrics.add("mbPerSecond", line.mbPerSecond(), MetricInfo.higher().addsUp());
        if (settings.statistics()) {
            stats.addTo(metrics, "", puts);
        }
        metrics.add("keysAfterReopen", keys, MetricInfo.neither());
        checks.add(Check.pass("puts completed", puts + " of " + settings.num()));
        if (puts != settings.num()) {
            checks.set(checks.size() - 1, Check.fail("puts completed", puts + " of " + settings.num()));
        }
        checks.add(keyCheck(settings, puts, keys));
        return r.toBuilder().metrics(metrics).checks(checks).build();
    }

    private static Check keyCheck(FillSettings settings, long puts, long keys) {
        String name = "reopened database holds the keys written";
        if (settings.order() == FillOrder.SEQ) {
            String detail = keys + " keys after reopening, " + puts + " distinct keys written";
            return keys == puts ? Check.pass(name, detail) : Check.fail(name, detail);
        }
        // fillrandom draws with replacement: about num x (1 - 1/e) distinct keys, never more than the puts.
        String detail = keys + " keys after reopening from " + puts + " puts with replacement ("
                + String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * keys / Math.max(1, puts)) + " distinct)";
        return keys > 0 && keys <= puts ? Check.pass(name, detail) : Check.fail(name, detail);
    }
}

package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.OutputDirectory;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.rocksdb.durability.CrashTrial;
import dev.gauntlet.rocksdb.durability.DurabilityCase;
import dev.gauntlet.rocksdb.fill.FillOrder;
import dev.gauntlet.rocksdb.fill.FillRun;
import dev.gauntlet.rocksdb.fill.FillSeries;
import dev.gauntlet.rocksdb.fill.FillSettings;
import dev.gauntlet.rocksdb.fill.FillWorkload;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import dev.gauntlet.rocksdb.fill.WalSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench-rocksdb run}, the default job: seed 001's question (what does {@code manual_wal_flush} buy?) answered
 * on this machine in about a minute. fillseq and fillrandom, each with automatic and manual WAL flush, a few runs
 * each on fresh databases; then a process kill with unflushed writes. Prints the answer table and the trade-off.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 001's question in about a minute: fillseq and fillrandom x manual_wal_flush off/on "
                + "(sync off), --repeat runs each on fresh databases, then a writer killed with unflushed writes.",
                "Prints puts/s (median), per-put p50/p99 (all runs' puts), WAL bytes and syncs per put, and what "
                        + "manual flush risks. Each series' result.json and report.md are under --out."},
        footer = {"", "Examples:",
                "  bench-rocksdb run",
                "  bench-rocksdb run --num 1000000 --repeat 5",
                "  bench-rocksdb fill --benchmarks fillseq,fillrandom --manual-wal-flush --repeat 5   (one variant, "
                        + "db_bench's output)"})
public final class AnswerCommand implements Callable<Integer> {

    @Option(names = "--num", paramLabel = "N", defaultValue = "200000", description = "Puts per run (default: ${DEFAULT-VALUE}).")
    long num;
    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "Runs per variant (default: ${DEFAULT-VALUE}).")
    int repeat;
    @Option(names = "--out", paramLabel = "DIR",
            description = "Where the series go (default: results/rocksdb-answer-<timestamp>-<id>).")
    Path out;

    @Spec
    CommandSpec spec;

    private final PrintStream console = System.out;

    /** One variant's figures. */
    private record Row(FillOrder order, boolean manual, double medianOps, double p50Micros, double p99Micros,
                       double walBytesPerPut, double walSyncsPerPut) {
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (num < 1 || repeat < 1) {
            throw new BadInputException("--num and --repeat must be at least 1 (got " + num + " and " + repeat + ")");
        }
        Path outDir = OutputDirectory.check(out != null ? out : OutputDirectory.defaultFor("rocksdb-answer", null));
        Path dbRoot = Files.createTempDirectory("gauntlet-rocksdb-");
        long seed = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2);
        FillSeries series = new FillSeries(Benchmark.of(spec, "rocksdb-fill", console), Duration.ofSeconds(10), console);
        List<Row> rows = new ArrayList<>();
        CrashTrial.Outcome manualKill;
        CrashTrial.Outcome autoKill;
        try {
            for (FillOrder order : List.of(FillOrder.SEQ, FillOrder.RANDOM)) {
                for (boolean manual : List.of(false, true)) {
                    String name = order.benchmark() + (manual ? "-manual-flush" : "-auto-flush");
                    FillSettings settings = FillSettings.defaults(order, num,
                            WalSettings.autoFlush().withManualWalFlush(manual));
                    FillSeries.Figures f = series.run(settings, repeat, dbRoot.resolve(name), false,
                            outDir.resolve(name), seed, null);
                    rows.add(row(order, manual, f.combined()));
                }
            }
            manualKill = CrashTrial.run(DurabilityCase.MANUAL_NO_FLUSH, 100_000, dbRoot.resolve("kill-manual"));
            autoKill = CrashTrial.run(DurabilityCase.AUTOMATIC, 100_000, dbRoot.resolve("kill-auto"));
        } finally {
            RocksDbStore.delete(dbRoot);
        }
        String answer = answer(rows, manualKill, autoKill);
        Files.writeString(outDir.resolve("answer.md"), answer);
        console.println();
        console.print(answer);
        console.println("Answer: " + outDir.resolve("answer.md"));
        return ExitCode.OK;
    }

    private static Row row(FillOrder order, boolean manual, RunResult r) {
        OperationResult put = r.operation(FillWorkload.PUT).orElseThrow();
        return new Row(order, manual, r.metrics().getOrDefault("gauntletMedianOpsPerSecond", 0.0),
                put.latencyMs().p50() * 1000, put.latencyMs().p99() * 1000,
                r.metrics().getOrDefault("totalWalBytesPerPut", 0.0), r.metrics().getOrDefault("totalWalSyncsPerPut", 0.0));
    }

    private String answer(List<Row> rows, CrashTrial.Outcome manualKill, CrashTrial.Outcome autoKill) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "# What manual_wal_flush buys (RocksDB %s, %,d puts x %d runs, sync off)%n%n",
                FillRun.rocksDbVersion(), num, repeat));
        md.append("| fill | WAL flush | puts/s (median) | per put p50 | per put p99 | WAL bytes/put | WAL syncs/put |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f us | %.2f us | %.1f | %.3f |%n",
                    r.order().benchmark(), r.manual() ? "manual" : "automatic", r.medianOps(), r.p50Micros(),
                    r.p99Micros(), r.walBytesPerPut(), r.walSyncsPerPut()));
        }
        md.append('\n');
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            Row auto = rows.get(i);
            Row manual = rows.get(i + 1);
            md.append(String.format(Locale.ROOT, "- %s: manual flush %.2fx the puts/s of automatic flush, with the "
                            + "same WAL bytes per put (%.1f vs %.1f): the bytes are the same, the write() call per put is what it "
                            + "saves.%n",
                    auto.order().benchmark(), manual.medianOps() / Math.max(auto.medianOps(), 1e-9),
                    manual.walBytesPerPut(), auto.walBytesPerPut()));
        }
        md.append(String.format(Locale.ROOT, "- The trade-off: a process killed after %,d puts lost %,d of them (%.2f%%) "
                        + "with manual flush and no FlushWAL, %,d with automatic flush: unflushed writes live in "
                        + "RocksDB's buffer until FlushWAL (bench-rocksdb durability shows FlushWAL's cases).%n",
                manualKill.written(), manualKill.lost(), 100.0 * manualKill.lost() / Math.max(1, manualKill.written()),
                autoKill.lost()));
        return md.toString();
    }
}

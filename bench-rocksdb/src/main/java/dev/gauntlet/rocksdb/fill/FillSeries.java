package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.report.ChartFonts;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.rocksdb.dbbench.RepeatSummary;
import dev.gauntlet.rocksdb.dbbench.RunLine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A benchmark repeated {@code repeat} times, each run on a fresh database (db_bench's {@code [X5]} reuses one
 * database for all repeats; this does not), optionally interleaved with db_bench runs of the same settings.
 * Each run keeps its own result directory ({@code run-1}, ...); the series directory gets a combined
 * result.json and report.md (histograms of all runs added, run figures as metrics) and
 * {@value SideBySide#FILE_NAME} with the db_bench-format lines and, when compared, db_bench beside them.
 */
public final class FillSeries {

    private final Benchmark benchmark;
    private final Duration reportEvery;
    private final PrintStream out;

    public FillSeries(Benchmark benchmark, Duration reportEvery, PrintStream out) {
        this.benchmark = benchmark;
        this.reportEvery = reportEvery;
        this.out = out;
    }

    /** The figures of a finished series. */
    public record Figures(RunResult combined, List<RunLine> runs, List<RunLine> dbBenchRuns) {
    }

    /**
     * @param dbRoot   where the databases go ({@code <dbRoot>/run-N}, deleted after each run unless {@code keepDb})
     * @param dbBench  db_bench to run beside each run, or null
     */
    public Figures run(FillSettings settings, int repeat, Path dbRoot, boolean keepDb, Path outDir, long seed,
                       DbBenchProcess dbBench) {
        List<RunResult> outcomes = new ArrayList<>();
        List<RunLine> lines = new ArrayList<>();
        List<RunLine> dbBenchLines = new ArrayList<>();
        String name = settings.order().benchmark();
        FillRun fillRun = new FillRun(benchmark, reportEvery);
        for (int i = 1; i <= repeat; i++) {
            Path dbDir = dbRoot.resolve("run-" + i);
            out.println();
            out.println("== " + name + " run " + i + " of " + repeat + " (" + settings.wal().label() + ", fresh database "
                    + dbDir + ")");
            RunResult o = fillRun.run(settings, dbDir, outDir.resolve("run-" + i), seed + i - 1, i, repeat);
            outcomes.add(o);
            RunLine line = FillRun.line(settings, o);
            lines.add(line);
            out.println(line.format());
            if (!keepDb) {
                RocksDbStore.delete(dbDir);
            }
            if (dbBench != null) {
                Path dbBenchDir = dbRoot.resolve("db_bench-" + i);
                try {
                    RunLine d = dbBench.runOnce(settings, dbBenchDir, seed + i - 1);
                    dbBenchLines.add(d);
                    out.println("db_bench run " + i + ": " + d.format());
                } catch (IOException e) {
                    throw new RunFailedException("db_bench failed: " + e.getMessage(), e);
                } finally {
                    if (!keepDb) {
                        RocksDbStore.delete(dbBenchDir);
                    }
                }
            }
        }
        RunResult combined = combine(settings, outcomes, lines, dbBenchLines, dbBench);
        try {
            ResultFile.write(combined, outDir.resolve(ResultFile.NAME));
            RunReport.write(combined, outDir);
            Files.writeString(outDir.resolve(SideBySide.FILE_NAME), SideBySide.markdown(combined));
        } catch (IOException e) {
            throw new RunFailedException("cannot write the series result to " + outDir + ": " + e.getMessage(), e);
        }
        ChartFonts.missing().ifPresent(out::println);
        out.println();
        out.println("Gauntlet (RocksJava " + FillRun.rocksDbVersion() + ", direct ByteBuffers), " + settings.wal().label() + ":");
        lines.forEach(l -> out.println(l.format()));
        if (lines.size() > 1) {
            RepeatSummary s = RepeatSummary.of(lines);
            out.println(s.formatAverage());
            out.println(s.formatMedian());
        }
        if (!dbBenchLines.isEmpty()) {
            out.println(dbBench.version() + ":");
            dbBenchLines.forEach(l -> out.println(l.format()));
            if (dbBenchLines.size() > 1) {
                RepeatSummary s = RepeatSummary.of(dbBenchLines);
                out.println(s.formatAverage());
                out.println(s.formatMedian());
            }
            Double overhead = combined.metrics().get(SideBySide.JNI_OVERHEAD);
            Double ratio = combined.metrics().get(SideBySide.RATIO);
            out.printf(java.util.Locale.ROOT, "Median ops/sec: Gauntlet / db_bench = %.3f; JNI overhead %+.1f%% time per put%n",
                    ratio, overhead);
        }
        out.println("Series result: " + outDir.resolve(ResultFile.NAME) + "  (per-run results in run-1 .. run-" + repeat + ")");
        return new Figures(combined, List.copyOf(lines), List.copyOf(dbBenchLines));
    }

    private static RunResult combine(FillSettings settings, List<RunResult> outcomes, List<RunLine> lines,
                                     List<RunLine> dbBenchLines, DbBenchProcess dbBench) {
        RunResult first = outcomes.get(0);
        double measured = outcomes.stream().mapToDouble(o -> o.measuredSeconds()).sum();
        List<OperationResult> operations = new ArrayList<>();
        for (OperationResult op : first.operations()) {
            Histogram latency = new Histogram(3);
            Histogram service = new Histogram(3);
            long count = 0;
            long errors = 0;
            for (RunResult o : outcomes) {
                OperationResult part = o.operation(op.name()).orElseThrow();
                latency.add(HistogramCodec.decode(part.histogram()));
                if (part.serviceTime() != null) {
                    service.add(HistogramCodec.decode(part.serviceTime().histogram()));
                }
                count += part.count();
                errors += part.errors();
            }
            operations.add(OperationResult.of(op.name(), count, errors, 0, count / Math.max(measured, 1e-9),
                    LatencySummary.of(latency), HistogramCodec.encode(latency), Timing.of(service), null, Map.of()));
        }
        Metrics metrics = new Metrics();
        RepeatSummary ours = RepeatSummary.of(lines);
        SideBySide.putSummary(metrics, SideBySide.OURS, ours);
        SideBySide.putRuns(metrics, SideBySide.OURS, lines);
        WalStatistics total = outcomes.stream().map(WalStatistics::of).reduce(WalStatistics.NONE, WalStatistics::plus);
        long puts = lines.stream().mapToLong(RunLine::operations).sum();
        if (settings.statistics()) {
            total.addTo(metrics, "total", puts);
        }
        if (!dbBenchLines.isEmpty()) {
            RepeatSummary theirs = RepeatSummary.of(dbBenchLines);
            SideBySide.putSummary(metrics, SideBySide.DB_BENCH, theirs);
            SideBySide.putRuns(metrics, SideBySide.DB_BENCH, dbBenchLines);
            metrics.add(SideBySide.RATIO, ours.medianOps() / theirs.medianOps(), MetricInfo.higher());
            metrics.add(SideBySide.JNI_OVERHEAD, (theirs.medianOps() / ours.medianOps() - 1) * 100, MetricInfo.lower());
        }
        List<Check> checks = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            for (Check c : outcomes.get(i).checks()) {
                checks.add(new Check("run " + (i + 1) + ": " + c.name(), c.status(), c.detail()));
            }
        }
        Map<String, Object> parameters = new LinkedHashMap<>(first.parameters());
        parameters.remove("dbDir");
        parameters.remove(dev.gauntlet.core.result.Conditions.DRAWN);
        parameters.put("run", "series of " + outcomes.size() + " runs, each on a fresh database (results in run-N)");
        parameters.put("repeat", outcomes.size());
        if (dbBench != null) {
            parameters.put("dbBench", dbBench.version());
            parameters.put("dbBenchCommand", String.join(" ", dbBench.command(settings, Path.of("<fresh dir>"), 0))
                    .replace("--seed=1", "--seed=<run seed>"));
        }
        return RunResult.builder()
                .runId(RunResult.newRunId())
                .tool(first.tool())
                .workload(first.workload())
                .variant(first.variant())
                .command(first.command())
                .labels(first.labels())
                .startedAt(first.startedAt())
                .endedAt(outcomes.get(outcomes.size() - 1).endedAt())
                .measuredSeconds(measured)
                .clients(first.clients())
                .environment(first.environment())
                .parameters(parameters)
                .operations(operations)
                .metrics(metrics)
                .checks(checks)
                .mergedRunIds(outcomes.stream().map(RunResult::runId).toList())
                .build();
    }
}

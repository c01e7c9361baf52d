package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.rocksdb.dbbench.RepeatSummary;
import dev.gauntlet.rocksdb.dbbench.RunLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@value #FILE_NAME} of a fill series, rendered from its combined result alone: the runs in db_bench's
 * format and, when db_bench ran beside them, a side-by-side table with the JNI overhead.
 */
public final class SideBySide {

    public static final String FILE_NAME = "db_bench.md";
    static final String OURS = "gauntlet";
    static final String DB_BENCH = "dbBench";
    /** Median ops/s of Gauntlet over db_bench's. */
    public static final String RATIO = "gauntletOverDbBenchMedianOps";
    /** Extra time per put through RocksJava, in % of db_bench's: (db_bench ops/s / Gauntlet ops/s - 1) x 100. */
    public static final String JNI_OVERHEAD = "jniOverheadPercent";

    private SideBySide() {
    }

    public static String markdown(RunResult r) {
        Map<String, Object> p = r.parameters();
        String name = String.valueOf(p.get("benchmark"));
        int threads = ((Number) p.getOrDefault("threads", 1)).intValue();
        int bytes = ((Number) p.getOrDefault("keySize", 16)).intValue() + ((Number) p.getOrDefault("valueSize", 100)).intValue();
        long num = ((Number) p.getOrDefault("num", 0)).longValue();
        List<RunLine> ours = lines(r, OURS, name, num, threads, bytes);
        List<RunLine> theirs = lines(r, DB_BENCH, name, num, threads, bytes);
        StringBuilder md = new StringBuilder("# ").append(r.variant()).append(" in db_bench's format\n\n");
        md.append("RocksDB ").append(p.get("rocksdbVersion")).append(" through RocksJava (direct ByteBuffers), ")
                .append(ours.size()).append(" runs, each on a fresh database. Command:\n\n```\n").append(r.command())
                .append("\n```\n\n```\n");
        ours.forEach(l -> md.append(l.format()).append('\n'));
        if (ours.size() > 1) {
            RepeatSummary s = RepeatSummary.of(ours);
            md.append(s.formatAverage()).append('\n').append(s.formatMedian()).append('\n');
        }
        md.append("```\n\n");
        if (theirs.isEmpty()) {
            return md.toString();
        }
        md.append("## Beside ").append(p.get("dbBench")).append("\n\n")
                .append("Same settings, one fresh database per run, runs interleaved with Gauntlet's:\n\n```\n")
                .append(p.get("dbBenchCommand")).append("\n```\n\n```\n");
        theirs.forEach(l -> md.append(l.format()).append('\n'));
        if (theirs.size() > 1) {
            RepeatSummary s = RepeatSummary.of(theirs);
            md.append(s.formatAverage()).append('\n').append(s.formatMedian()).append('\n');
        }
        md.append("```\n\n| run | Gauntlet ops/s | db_bench ops/s | Gauntlet / db_bench |\n|---:|---:|---:|---:|\n");
        for (int i = 0; i < Math.max(ours.size(), theirs.size()); i++) {
            double a = i < ours.size() ? rate(ours.get(i)) : Double.NaN;
            double b = i < theirs.size() ? rate(theirs.get(i)) : Double.NaN;
            md.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %.3f |%n", i + 1, a, b, a / b));
        }
        RepeatSummary a = RepeatSummary.of(ours);
        RepeatSummary b = RepeatSummary.of(theirs);
        md.append(String.format(Locale.ROOT, "| mean (± 95%% CI) | %,.0f ± %,.0f | %,.0f ± %,.0f | %.3f |%n",
                a.meanOps(), a.ci95Ops(), b.meanOps(), b.ci95Ops(), a.meanOps() / b.meanOps()));
        md.append(String.format(Locale.ROOT, "| median | %,.0f | %,.0f | **%.3f** |%n%n", a.medianOps(), b.medianOps(),
                a.medianOps() / b.medianOps()));
        md.append(String.format(Locale.ROOT, "JNI overhead (median): %+.1f%% time per put "
                + "(db_bench median ops/s / Gauntlet median ops/s - 1). It includes every difference between the two "
                + "programs, not JNI alone: the runner's timing per put, and how each RocksDB library was built (Debian's "
                + "db_bench 7.8.3 warns that it runs with assertions enabled). A negative figure means Gauntlet was faster.%n",
                r.metrics().get(JNI_OVERHEAD)));
        return md.toString();
    }

    private static double rate(RunLine l) {
        return l.opsPerSecond();
    }

    /**
     * A series' summary as metrics. The mean, median and MB/s are figures of speed (higher is better); the 95%
     * confidence interval's half-width says how sure the mean is, which is neither good nor bad, and like the mean
     * of a series it does not add up across processes.
     */
    static void putSummary(Metrics metrics, String who, RepeatSummary s) {
        metrics.add(who + "MeanOpsPerSecond", s.meanOps(), MetricInfo.higher());
        metrics.add(who + "Ci95OpsPerSecond", s.ci95Ops(), MetricInfo.neither());
        metrics.add(who + "MedianOpsPerSecond", s.medianOps(), MetricInfo.higher());
        metrics.add(who + "MedianMbPerSecond", s.medianMb(), MetricInfo.higher());
    }

    /** Keeps every figure of each run's line as metrics, so the lines can be printed again exactly. */
    static void putRuns(Metrics metrics, String who, List<RunLine> lines) {
        for (int i = 0; i < lines.size(); i++) {
            RunLine l = lines.get(i);
            String run = who + "Run" + (i + 1);
            metrics.add(run + "OpsPerSecond", l.opsPerSecond(), MetricInfo.higher());
            metrics.add(run + "Seconds", l.seconds(), MetricInfo.lower());
            metrics.add(run + "Operations", l.operations(), MetricInfo.neither());
            metrics.add(run + "MicrosPerOp", l.microsPerOp(), MetricInfo.lower());
            metrics.add(run + "MbPerSecond", l.mbPerSecond(), MetricInfo.higher());
        }
    }

    private static List<RunLine> lines(RunResult r, String who, String name, long num, int threads, int bytes) {
        List<RunLine> lines = new ArrayList<>();
        Map<String, Double> m = r.metrics();
        for (int i = 1; m.containsKey(who + "Run" + i + "Seconds"); i++) {
            String run = who + "Run" + i;
            double seconds = m.get(run + "Seconds");
            long operations = Math.round(m.getOrDefault(run + "Operations", (double) num));
            RunLine computed = RunLine.of(name, operations, seconds, threads, bytes);
            lines.add(new RunLine(name, m.getOrDefault(run + "MicrosPerOp", computed.microsPerOp()),
                    Math.round(m.getOrDefault(run + "OpsPerSecond", (double) computed.opsPerSecond())), seconds, operations,
                    m.getOrDefault(run + "MbPerSecond", computed.mbPerSecond())));
        }
        return lines;
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import org.HdrHistogram.Histogram;

/**
 * The whole-run figures a report and a comparison both show, computed once so they cannot disagree:
 * throughput (each operation's recorded rate, summed) and the latency of all operations read from their summed histograms.
 */
record RunTotals(long count, double opsPerSecond, long errors, long retries, LatencySummary latencyMs,
                 Histogram histogram) {

    static RunTotals of(RunResult run) {
        Histogram all = Histograms.sum(run.operations().stream().map(OperationResult::histogram).toList());
        double rate = run.operations().stream().mapToDouble(op -> opsPerSecond(run, op)).sum();
        return new RunTotals(run.totalCount(), rate, errors(run), run.totalRetries(), LatencySummary.of(all), all);
    }

    /** The classified error list is the authority; a result without one still counts its per-operation errors. */
    static long errors(RunResult run) {
        return run.errors().isEmpty()
                ? run.operations().stream().mapToLong(OperationResult::errors).sum()
                : run.totalErrors();
    }

    /**
     * One operation's throughput: the rate its result records (one process: its count over the measured seconds; a
     * merge of concurrent processes: the sum of their rates, each over its own window, the rule tpmC follows too), or
     * for a result that records none, its count over the measured seconds.
     */
    static double opsPerSecond(RunResult run, OperationResult op) {
        return op.opsPerSecond() > 0 || op.count() == 0 ? op.opsPerSecond()
                : Figures.perSecond(op.count(), run.measuredSeconds(), 0);
    }

    /** The latency of every operation of several runs, from their summed histograms. */
    static LatencySummary latency(java.util.List<RunResult> runs) {
        return LatencySummary.of(Histograms.sum(runs.stream().flatMap(r -> r.operations().stream())
                .map(OperationResult::histogram).toList()));
    }

    /** The latency of one operation over several runs, from their summed histograms (one run: its own summary). */
    static LatencySummary latency(java.util.List<RunResult> runs, String operation) {
        if (runs.size() == 1) {
            return latency(runs.get(0).operation(operation).orElseThrow());
        }
        return LatencySummary.of(Histograms.sum(runs.stream().map(r -> r.operation(operation).orElseThrow())
                .map(OperationResult::histogram).toList()));
    }

    /** The recorded summary when present, else the one its histogram implies. */
    static LatencySummary latency(OperationResult op) {
        return op.latencyMs() != null ? op.latencyMs()
                : LatencySummary.of(Histograms.sum(java.util.List.of(op.histogram())));
    }
}

package dev.gauntlet.core.history;

import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo.Better;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One figure a history follows over the runs of a series: throughput, each workload metric, p50/p95/p99 of each
 * operation and of each observed latency (end to end), and errors. Which way is better comes from the result: latency
 * and errors lower, throughput higher, a workload metric as the workload declared it (a metric it did not declare is
 * followed, and its changes reported, without calling them better or worse).
 *
 * @param name   as tables show it: {@code throughput}, {@code tpmC}, {@code newOrder p99}
 * @param unit   {@code ops/s}, {@code ms}, or empty for a workload metric and a count
 * @param better which way the figure should move
 */
public record Figure(String name, String unit, Better better) {

    /** The percentiles a history follows, of every operation and observation. */
    private static final String[] PERCENTILES = {"p50", "p95", "p99"};

    /** The name with its unit, as a column or chart is titled: {@code newOrder p99 (ms)}. */
    public String title() {
        return unit.isEmpty() ? name : name + " (" + unit + ")";
    }

    /**
     * What a run measured of each figure, in a stable order: throughput, metrics by name, operations in the run's
     * order, observations by name, errors. Names are sorted where the result keeps a map, so a result read back from
     * a store that does not keep key order (jsonb) lists its figures as its directory's copy does.
     */
    public static Map<Figure, Double> readings(RunResult run) {
        Map<Figure, Double> values = new LinkedHashMap<>();
        if (run.measuredSeconds() > 0) {
            values.put(new Figure("throughput", "ops/s", Better.HIGHER), run.totalCount() / run.measuredSeconds());
        }
        new java.util.TreeMap<>(run.metrics()).forEach((name, value) -> {
            if (value != null && Double.isFinite(value)) {
                values.put(new Figure(name, "", run.metricInfo(name).better()), value);
            }
        });
        for (OperationResult op : run.operations()) {
            if (op.count() > 0 && op.latencyMs() != null) {
                percentiles(values, op.name(), op.latencyMs());
            }
        }
        new java.util.TreeMap<>(run.observations()).forEach((name, timing) -> {
            if (timing.count() > 0 && timing.latencyMs() != null) {
                percentiles(values, name, timing.latencyMs());
            }
        });
        values.put(new Figure("errors", "", Better.LOWER), (double) run.totalErrors());
        return values;
    }

    private static void percentiles(Map<Figure, Double> values, String of, LatencySummary latency) {
        double[] p = {latency.p50(), latency.p95(), latency.p99()};
        for (int i = 0; i < PERCENTILES.length; i++) {
            values.put(new Figure(of + " " + PERCENTILES[i], "ms", Better.LOWER), p[i]);
        }
    }
}

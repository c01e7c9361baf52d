package dev.gauntlet.core.result;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A workload's figures for one run, each declared with its {@link MetricInfo}, in the order the workload adds
 * them (results, summaries and reports list them that way).
 *
 * <pre>{@code
 * Metrics m = new Metrics().add("tpmC", tpmC, MetricInfo.higher().addsUp())
 *                          .add("driverCpuPerTransactionMs", cpu, MetricInfo.lower());
 * }</pre>
 *
 * <p>Not thread-safe: built by one thread after the run.
 */
public final class Metrics {

    private final Map<String, Double> values = new LinkedHashMap<>();
    private final Map<String, MetricInfo> info = new LinkedHashMap<>();

    public Metrics() {
    }

    /** The metrics of an existing result, to add to. */
    public static Metrics of(RunResult result) {
        Metrics m = new Metrics();
        result.metrics().forEach((name, value) -> m.add(name, value, result.metricInfo(name)));
        return m;
    }

    /** Adds (or replaces) a metric; a NaN or infinite value is not a figure and is refused. */
    public Metrics add(String name, double value, MetricInfo meaning) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric " + name + " is not a finite number: " + value);
        }
        values.put(name, value);
        info.put(name, meaning == null ? MetricInfo.UNDECLARED : meaning);
        return this;
    }

    public Map<String, Double> values() {
        return Collections.unmodifiableMap(values);
    }

    public Map<String, MetricInfo> info() {
        return Collections.unmodifiableMap(info);
    }
}

package dev.gauntlet.core.prometheus;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.RunListener;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's figures live, for Prometheus to scrape ({@code --prometheus-port}): fed by every closed interval, so what
 * it shows is at most one reporting period old, and exactly what the result will hold (the same histograms). All
 * series carry {@code workload}, {@code worker} (the {@code --worker} share, {@code 0/1} alone) and {@code phase}
 * (a run through faults names its phases), so a dashboard can sum workers and tell phases apart.
 *
 * <ul>
 *   <li>{@code gauntlet_operations_total{operation}}: committed operations;</li>
 *   <li>{@code gauntlet_retries_total{operation}}: attempts retried after a serialization failure or deadlock;</li>
 *   <li>{@code gauntlet_errors_total{class}}: failures by class ({@code connection}, {@code ambiguous-commit},
 *       {@code timeout}, {@code retryable}...) and {@code reconnect} attempts that failed;</li>
 *   <li>{@code gauntlet_operation_latency_seconds{operation}}: a histogram of latency from the intended start (classic
 *       buckets 0.5 ms to 60 s, for {@code histogram_quantile});</li>
 *   <li>{@code gauntlet_phase{phase}}: 1 while the run is in that phase, then 0;</li>
 *   <li>{@code gauntlet_gauge{name}}: what the workload or the server reported at the interval's end (lag, backlog,
 *       replication lag...).</li>
 * </ul>
 */
public final class PrometheusEndpoint implements RunListener, AutoCloseable {

    /** Latency buckets in seconds: from half a millisecond (a local read) to a minute (a stall). */
    static final double[] BUCKETS = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60};

    private final String workload;
    private final String worker;
    private final HTTPServer server;
    private final Counter operations;
    private final Counter retries;
    private final Counter errors;
    private final Histogram latency;
    private final Gauge phase;
    private final Gauge gauges;
    private String currentPhase;

    private PrometheusEndpoint(String workload, String worker, int port) throws IOException {
        this.workload = workload;
        this.worker = worker;
        PrometheusRegistry registry = new PrometheusRegistry();
        operations = Counter.builder().name("gauntlet_operations_total")
                .help("Operations committed, per operation").labelNames("workload", "worker", "phase", "operation")
                .register(registry);
        retries = Counter.builder().name("gauntlet_retries_total")
                .help("Attempts retried after a serialization failure or deadlock")
                .labelNames("workload", "worker", "phase", "operation").register(registry);
        errors = Counter.builder().name("gauntlet_errors_total")
                .help("Failed operations by error class, and failed reconnect attempts")
                .labelNames("workload", "worker", "phase", "class").register(registry);
        latency = Histogram.builder().name("gauntlet_operation_latency_seconds").unit(Unit.SECONDS)
                .help("Latency of committed operations from their intended start").classicOnly()
                .classicUpperBounds(BUCKETS).labelNames("workload", "worker", "phase", "operation").register(registry);
        phase = Gauge.builder().name("gauntlet_phase").help("1 while the run is in this phase, then 0")
                .labelNames("workload", "worker", "phase").register(registry);
        gauges = Gauge.builder().name("gauntlet_gauge")
                .help("A value the workload or the server reported at the end of the last interval")
                .labelNames("workload", "worker", "name").register(registry);
        server = HTTPServer.builder().port(port).registry(registry).buildAndStart();
    }

    /**
     * Serves {@code /metrics} on {@code port} (0: any free port) until closed.
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static PrometheusEndpoint start(String workload, String worker, int port) {
        try {
            return new PrometheusEndpoint(workload, worker, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve Prometheus metrics on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    @Override
    public void onPhaseStart(String name, double startSeconds) {
        if (currentPhase != null) {
            phase.labelValues(workload, worker, currentPhase).set(0);
        }
        currentPhase = name;
        phase.labelValues(workload, worker, name).set(1);
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
        String in = interval.phase() == null ? Phase.MEASURE : interval.phase();
        for (Map.Entry<String, IntervalOperation> e : interval.operations().entrySet()) {
            IntervalOperation op = e.getValue();
            operations.labelValues(workload, worker, in, e.getKey()).inc(op.count());
            retries.labelValues(workload, worker, in, e.getKey()).inc(op.retries());
            if (op.histogram() != null && op.count() > 0) {
                var values = latency.labelValues(workload, worker, in, e.getKey());
                org.HdrHistogram.Histogram recorded = HistogramCodec.decode(op.histogram());
                for (HistogramIterationValue v : recorded.recordedValues()) {
                    // The bottom of the value's HdrHistogram bucket (within 0.1% of what was recorded): a value
                    // recorded at a bucket bound counts as within it.
                    double seconds = recorded.lowestEquivalentValue(v.getValueIteratedTo()) / 1e9;
                    for (long n = v.getCountAtValueIteratedTo(); n > 0; n--) {
                        values.observe(seconds);
                    }
                }
            }
        }
        interval.failures().forEach((failure, count) -> {
            if (!Interval.REOPENED.equals(failure) && !"retried".equals(failure)) {
                errors.labelValues(workload, worker, in, failure).inc(count);
            }
        });
        interval.gauges().forEach((name, value) -> gauges.labelValues(workload, worker, name).set(value));
    }

    @Override
    public void onPhaseEnd(Phase ended) {
    }

    @Override
    public void close() {
        server.close();
    }
}

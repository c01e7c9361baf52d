package dev.gauntlet.core.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything measured about one named operation: latency from the intended start, service time from the
 * actual start, time spent waiting for a pooled connection, and success/retry/error counters.
 *
 * <p>Thread safety: every {@code record}/{@code count} method may be called concurrently from any thread.
 * Counters are cumulative; the reporter derives interval figures from differences, so nothing is lost to a
 * reset racing an increment.
 */
public final class OperationStats {

    private final String name;
    private final LatencyRecorder latency = new LatencyRecorder();
    private final LatencyRecorder service = new LatencyRecorder();
    private final LatencyRecorder poolWait = new LatencyRecorder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Counters counterSink = (counter, amount) ->
            counters.computeIfAbsent(counter, c -> new LongAdder()).add(amount);

    public OperationStats(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** One committed operation: latency from its intended start, service time from its actual start. */
    public void recordSuccess(long latencyNanos, long serviceNanos) {
        latency.record(latencyNanos);
        service.record(serviceNanos);
        successes.increment();
    }

    public void recordPoolWait(long nanos) {
        poolWait.record(nanos);
    }

    public void countRetry() {
        retries.increment();
    }

    public void countError() {
        errors.increment();
    }

    /** The operation's own counters (see {@link Counters}); cumulative, like the other counters here. */
    public Counters counters() {
        return counterSink;
    }

    /** Current value of every counter, by name. */
    public Map<String, Long> counterValues() {
        Map<String, Long> values = new TreeMap<>();
        counters.forEach((k, v) -> values.put(k, v.sum()));
        return values;
    }

    public LatencyRecorder latency() {
        return latency;
    }

    public LatencyRecorder service() {
        return service;
    }

    public LatencyRecorder poolWait() {
        return poolWait;
    }

    public long successes() {
        return successes.sum();
    }

    public long retries() {
        return retries.sum();
    }

    public long errors() {
        return errors.sum();
    }
}

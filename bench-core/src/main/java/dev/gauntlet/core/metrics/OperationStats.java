package dev.gauntlet.core.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Everything measured about one named operation: latency from the intended start, service time from the
 * actual start, time spent waiting for a pooled connection, the latency of operations that failed, the lower
 * bound of operations that were due but never ran, and success/retry/error/reconnect counters.
 *
 * <p>An operation whose latency equals its service time (it started exactly when intended: closed loop, no
 * pause, served without a wait) is recorded once, into a histogram that counts towards both; the others go into a
 * latency-only and a service-only histogram. {@link #takeInterval} adds them back together, which is exact, and
 * the common case costs one recording instead of two.
 *
 * <p>Thread safety: every {@code record}/{@code count} method may be called concurrently from any thread;
 * {@link #takeInterval} from one thread at a time (the reporter). Counters are cumulative; the reporter derives
 * interval figures from differences, so nothing is lost to a reset racing an increment. Counters and histograms are
 * read one after the other, not atomically: an operation recording at the instant an interval closes may have its
 * latency in one interval and its counts in the next. Totals over the run are exact.
 */
public final class OperationStats {

    private final String name;
    private final LatencyRecorder latencyEqualsService;
    private final LatencyRecorder latencyOnly;
    private final LatencyRecorder serviceOnly;
    private final LatencyRecorder poolWait = new LatencyRecorder();
    private final LatencyRecorder failed = new LatencyRecorder();
    private final LatencyRecorder unissued = new LatencyRecorder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Counters counterSink = (counter, amount) ->
            counters.computeIfAbsent(counter, c -> new LongAdder()).add(amount);

    /** One reporting interval of an operation; fresh histograms the caller may keep. */
    public record Snapshot(Histogram latency, Histogram service, Histogram poolWait, Histogram failed,
                           Histogram unissued) {
    }

    public OperationStats(String name) {
        this(name, 0);
    }

    /**
     * @param ownWriters runner workers 0..ownWriters-1 that record successes into stripes of their own (see
     *                   {@link LatencyRecorder#LatencyRecorder(int)})
     */
    public OperationStats(String name, int ownWriters) {
        this.name = name;
        this.latencyEqualsService = new LatencyRecorder(ownWriters);
        this.latencyOnly = new LatencyRecorder(ownWriters);
        this.serviceOnly = new LatencyRecorder(ownWriters);
    }

    public String name() {
        return name;
    }

    /** One committed operation: latency from its intended start, service time from its actual start. */
    public void recordSuccess(long latencyNanos, long serviceNanos) {
        if (latencyNanos == serviceNanos) {
            latencyEqualsService.record(latencyNanos);
        } else {
            latencyOnly.record(latencyNanos);
            serviceOnly.record(serviceNanos);
        }
    }

    /** The same, from a runner worker's writer slot (see {@link LatencyRecorder#record(long, int)}). */
    public void recordSuccess(long latencyNanos, long serviceNanos, int writer) {
        if (latencyNanos == serviceNanos) {
            latencyEqualsService.record(latencyNanos, writer);
        } else {
            latencyOnly.record(latencyNanos, writer);
            serviceOnly.record(serviceNanos, writer);
        }
    }

    /** An operation that ended in failure (after its last attempt), from its intended start to the failure. */
    public void recordFailure(long latencyNanos) {
        failed.record(latencyNanos);
    }

    public void recordPoolWait(long nanos) {
        poolWait.record(nanos);
    }

    /**
     * An operation that was due before the run ended but never completed: {@code lowerBoundNanos} (end of run
     * minus its intended start) is the least it would have waited.
     */
    public void recordUnissued(long lowerBoundNanos) {
        unissued.record(lowerBoundNanos);
    }

    public void countRetry() {
        retries.increment();
    }

    public void countError() {
        errors.increment();
    }

    /** An attempt to open a new session after the client's session was lost (successful or not). */
    public void countReconnect() {
        reconnects.increment();
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

    /** Everything recorded since the previous call. */
    public Snapshot takeInterval() {
        Histogram both = latencyEqualsService.takeInterval();
        Histogram latency = LatencyRecorder.newHistogram();
        latency.add(both);
        latency.add(latencyOnly.takeInterval());
        Histogram service = LatencyRecorder.newHistogram();
        service.add(both);
        service.add(serviceOnly.takeInterval());
        return new Snapshot(latency, service, LatencyRecorder.keep(poolWait.takeInterval()),
                LatencyRecorder.keep(failed.takeInterval()), LatencyRecorder.keep(unissued.takeInterval()));
    }

    public long retries() {
        return retries.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public long reconnects() {
        return reconnects.sum();
    }

    /** Values above the histograms' ceiling ({@link LatencyRecorder#HIGHEST_TRACKABLE_NANOS}), recorded as the ceiling. */
    public long clamped() {
        return latencyEqualsService.clamped() + latencyOnly.clamped() + failed.clamped() + unissued.clamped();
    }
}

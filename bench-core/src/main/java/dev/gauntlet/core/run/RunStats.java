package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.ErrorTally;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.ErrorCount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a run's workers record, as they record it: each operation's stats (by name and role), the
 * latencies and gauges operations observed ({@link Attempt}), the failures by class and the error tallies. Workers
 * write; the interval accounts read it at every close. Nothing here knows time or intervals.
 */
final class RunStats {

    private final List<String> operationNames;
    /** Stripes per recorder: few enough workers each record into a slot of their own (single-writer protocol). */
    private final int stripes;
    /** Each operation's stats by the role whose clients ran it: a role's figures are its own stats'. */
    private final Map<String, Map<String, OperationStats>> byOperation = new ConcurrentHashMap<>();
    private final Map<String, LatencyRecorder> observations = new ConcurrentHashMap<>();
    /** Every failure of the whole run by class (retried attempts and failed reconnects included), never reset. */
    private final Map<String, LongAdder> failuresByClass = new ConcurrentHashMap<>();
    private final Gauges gauges;
    /** Replaced when the warm-up ends, so results count only the measured phase. */
    private volatile ErrorTally errors = new ErrorTally();
    private volatile ErrorTally retried = new ErrorTally();

    RunStats(List<String> operationNames, int workers, Gauges gauges) {
        this.operationNames = List.copyOf(operationNames);
        this.stripes = workers <= LatencyRecorder.STRIPES ? workers : 0;
        this.gauges = gauges;
        for (String name : operationNames) {
            byOperation.put(name, new ConcurrentHashMap<>());
        }
    }

    /** The stats of operation {@code name} as clients of {@code role} run it. */
    OperationStats stats(String name, String role) {
        return byOperation.computeIfAbsent(name, n -> new ConcurrentHashMap<>())
                .computeIfAbsent(role, r -> new OperationStats(name, stripes));
    }

    /**
     * Each operation's stats by role, the workload's operations first in its order (those no client ran yet with
     * none), then any others by name.
     */
    Map<String, Map<String, OperationStats>> ordered() {
        Map<String, Map<String, OperationStats>> ordered = new LinkedHashMap<>();
        for (String name : operationNames) {
            ordered.put(name, new TreeMap<>(byOperation.get(name)));
        }
        byOperation.keySet().stream().filter(name -> !operationNames.contains(name)).sorted()
                .forEach(name -> ordered.put(name, new TreeMap<>(byOperation.get(name))));
        return ordered;
    }

    String firstOperationName() {
        return operationNames.isEmpty() ? "unissued" : operationNames.get(0);
    }

    /** What a committed attempt said it saw, into the recorders (observations are discarded otherwise). */
    void record(Attempt observed, OperationStats s, long commitNanoTime, int stripe) {
        observed.replay((kind, name, value) -> {
            switch (kind) {
                case COUNT -> s.counters().add(name, value);
                case LATENCY -> observation(name).record(value, stripe);
                case LATENCY_SINCE -> observation(name).record(RunClock.epochNanos(commitNanoTime) - value, stripe);
                case GAUGE -> gauges.gauge(name, Gauges.OPERATION_GAUGE).set(value);
                case GAUGE_MILLIS_SINCE -> gauges.gauge(name, Gauges.OPERATION_AGE).set(Math.max(0,
                        (RunClock.epochNanos(commitNanoTime) - value) / 1_000_000));
            }
        });
    }

    private LatencyRecorder observation(String name) {
        return observations.computeIfAbsent(name, n -> new LatencyRecorder(stripes));
    }

    /** The observations by name, in name order. */
    Map<String, LatencyRecorder> observations() {
        return new TreeMap<>(observations);
    }

    /** An operation failed for good. */
    void countError(OperationStats s, Failure f) {
        s.countError();
        errors.count(f.kind().label(), f.code(), f.message());
        countFailure(f.kind().label());
    }

    /** An attempt failed and will be retried. */
    void countRetry(OperationStats s, Failure f) {
        s.countRetry();
        retried.count(ErrorCount.RETRIED, f.code(), f.message());
        countFailure(ErrorCount.RETRIED);
    }

    /** A session could not be opened; the client will try again. */
    void countFailedReconnect(Failure f) {
        errors.count(ErrorCount.RECONNECT, f.code(), f.message());
        countFailure(ErrorCount.RECONNECT);
    }

    void countFailure(String failureClass) {
        failuresByClass.computeIfAbsent(failureClass, k -> new LongAdder()).increment();
    }

    /** Each failure class's count over the whole run. */
    Map<String, Long> failuresByClass() {
        Map<String, Long> now = new TreeMap<>();
        failuresByClass.forEach((name, count) -> now.put(name, count.sum()));
        return now;
    }

    /** The measured phase begins: errors count from here, like everything else in the totals. */
    void startMeasuring() {
        errors = new ErrorTally();
        retried = new ErrorTally();
    }

    List<ErrorCount> errors() {
        List<ErrorCount> all = new ArrayList<>(errors.snapshot());
        all.addAll(retried.snapshot());
        return all;
    }
}

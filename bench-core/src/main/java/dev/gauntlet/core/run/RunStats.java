package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.ErrorTally;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.ErrorCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a run's workers record, as they record it: each operation's stats (by name, and which role ran it), the
 * latencies and gauges operations observed ({@link Attempt}), the failures by class and the error tallies. Workers
 * write; the interval accounts read it at every close. Nothing here knows time or intervals.
 */
final class RunStats {

    private static final String SHARED_OPERATION = "";

    private final List<String> operationNames;
    /** Stripes per recorder: few enough workers each record into a slot of their own (single-writer protocol). */
    private final int stripes;
    private final Map<String, OperationStats> stats = new ConcurrentHashMap<>();
    private final Map<String, LatencyRecorder> observations = new ConcurrentHashMap<>();
    /** Each operation's role, or {@link #SHARED_OPERATION} when clients of several roles run it. */
    private final Map<String, String> roleOfOperation = new ConcurrentHashMap<>();
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
            stats.put(name, new OperationStats(name, stripes));
        }
    }

    OperationStats stats(String name) {
        return stats.computeIfAbsent(name, n -> new OperationStats(n, stripes));
    }

    /** The stats of operation {@code name}, run by a client of {@code role}. */
    OperationStats stats(String name, String role) {
        roleOfOperation.merge(name, role, (a, b) -> a.equals(b) ? a : SHARED_OPERATION);
        return stats(name);
    }

    /** The role whose clients alone run {@code operation}, or null (not run yet, or shared between roles). */
    String roleOf(String operation) {
        String role = roleOfOperation.get(operation);
        return SHARED_OPERATION.equals(role) ? null : role;
    }

    /** Whether every operation run so far belongs to one role: a role's count is then its operations' counts. */
    boolean operationsOwnedByRoles() {
        return !roleOfOperation.containsValue(SHARED_OPERATION);
    }

    /** The workload's operations in its order, then any others by name. */
    List<OperationStats> ordered() {
        List<OperationStats> ordered = new ArrayList<>();
        for (String name : operationNames) {
            ordered.add(stats.get(name));
        }
        stats.values().stream().filter(s -> !operationNames.contains(s.name()))
                .sorted(Comparator.comparing(OperationStats::name)).forEach(ordered::add);
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

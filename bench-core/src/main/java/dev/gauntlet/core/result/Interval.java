package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One reporting interval ending {@code t} seconds after the run started, in the named phase: each operation's
 * figures, each latency observation's distribution (e.g. end-to-end), each gauge's value at the interval's end, and
 * the failures of the interval by class ({@code connection}, {@code ambiguous-commit}, {@code timeout}... as in the
 * result's errors, plus {@code retried} attempts, failed {@code reconnect} attempts and sessions {@value #REOPENED}
 * after a lost one), so a run through faults can be read second by second. Intervals close at every phase boundary,
 * so a phase's failures are the sum of its intervals'.
 *
 * <p>A long run's result keeps its intervals downsampled ({@link InlineIntervals}): one interval there may stand for
 * {@code merged} consecutive reporting intervals of one phase, added up exactly (histograms summed; a rate gauge's
 * counts summed, a level gauge's last value), with {@code unavailable} the summed length of those in which nothing
 * committed. Both are absent from an interval that merges none (every interval of a result written before them), which
 * is one reporting interval, unavailable for its whole length when nothing committed in it. The reporting intervals
 * themselves are in the run's {@link TimelineFile}.
 */
public record Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations,
                       long errors, long retries,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Timing> observations,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> gauges,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> failures,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer merged,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Double unavailable) {

    /** The class in {@link #failures} counting sessions re-opened after one was lost (not a failure itself). */
    public static final String REOPENED = "reopened";

    public Interval {
        // Keep the workload's order of operations (results and progress lines list them that way).
        operations = ordered(operations);
        observations = ordered(observations);
        gauges = ordered(gauges);
        failures = ordered(failures);
    }

    /** One reporting interval. */
    public Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations, long errors,
                    long retries, Map<String, Timing> observations, Map<String, Long> gauges,
                    Map<String, Long> failures) {
        this(t, seconds, phase, operations, errors, retries, observations, gauges, failures, null, null);
    }

    public Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations, long errors,
                    long retries, Map<String, Timing> observations, Map<String, Long> gauges) {
        this(t, seconds, phase, operations, errors, retries, observations, gauges, Map.of());
    }

    /** How many reporting intervals this one stands for: 1 unless it merges several. */
    public int reportingIntervals() {
        return merged == null ? 1 : merged;
    }

    /** Operations of every kind committed in this interval. */
    public long committed() {
        return operations.values().stream().mapToLong(IntervalOperation::count).sum();
    }

    /** Seconds of this interval in which no operation of any kind committed (of its reporting intervals, summed). */
    public double unavailableSeconds() {
        if (unavailable != null) {
            return unavailable;
        }
        return committed() == 0 ? seconds : 0;
    }

    /** Failures of the given class in this interval. */
    public long failures(String failureClass) {
        return failures.getOrDefault(failureClass, 0L);
    }

    /** An interval of operations only. */
    public Interval(double t, double seconds, String phase, Map<String, IntervalOperation> operations, long errors,
                    long retries) {
        this(t, seconds, phase, operations, errors, retries, Map.of(), Map.of());
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return map == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a planned disruption did, in seconds from the run's start: planned and actual start and end, outcome
 * ({@value #DONE}, {@value #FAILED} or {@value #NOT_STARTED}; {@value #PLANNED} in a driver process that did not inject
 * it, another process of the run did) and the notes it kept (or the error it failed with);
 * for a run with a recovery rule, one of three verdicts ({@code recovery}): how long after its end the workload was
 * back to its baseline ({@value #RECOVERED}, {@code recoverySeconds}); that it was not ({@value #NOT_RECOVERED}:
 * never back for all the time the rule needs and more, or back and out again during a hold that had room to
 * complete); or that the next disruption or the end of its phase came before the rule could hold, or cut short the
 * hold of a workload back ({@value #NOT_JUDGED}). {@code recoveryNote} says which, when, and when it was back.
 *
 * <p>{@code figures} are what the disruption measured itself, by name (e.g. {@value #AVAILABILITY_GAP}: seconds from
 * the fault to the first write accepted again); {@code failures} what the workload's clients saw from its start until
 * the workload was back (or the horizon of its recovery): failed attempts by class, ambiguous commits among them
 * (empty: none; null: not read from the intervals, as in a result written before they were).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds,
                               Double startSeconds, Double endSeconds, String outcome, List<String> notes,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Double> figures,
                               Map<String, Long> failures,
                               String recovery, Double recoverySeconds, String recoveryNote) {

    /** Seconds from the fault until a write was accepted again, as the disruption's own probe saw it. */
    public static final String AVAILABILITY_GAP = "availabilityGapSeconds";

    public static final String RECOVERED = "recovered";
    public static final String NOT_RECOVERED = "not recovered";
    public static final String NOT_JUDGED = "not judged";

    public static final String DONE = "done";
    public static final String FAILED = "failed";
    public static final String NOT_STARTED = "not started";
    /**
     * Not injected by this driver process: another process of the run (worker 0 of {@code --worker}) did; this
     * record has the planned times only, and a merge of the processes' results keeps the injecting one's instead.
     */
    public static final String PLANNED = "planned";

    public DisruptionRecord {
        notes = notes == null ? List.of() : List.copyOf(notes);
        figures = figures == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        failures = failures == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    public DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds, Double startSeconds,
                            Double endSeconds, String outcome, List<String> notes) {
        this(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome, notes, null);
    }

    public DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds, Double startSeconds,
                            Double endSeconds, String outcome, List<String> notes, Map<String, Double> figures) {
        this(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome, notes, figures, null,
                null, null, null);
    }

    /** Whether this process injected it (false: another process of the run did, and this is its plan). */
    public boolean injected() {
        return !PLANNED.equals(outcome);
    }

    /** This record {@code seconds} later: on a timeline that starts that much earlier (a merge's). */
    public DisruptionRecord shifted(double seconds) {
        return new DisruptionRecord(name, plannedStartSeconds + seconds, plus(plannedEndSeconds, seconds),
                plus(startSeconds, seconds), plus(endSeconds, seconds), outcome, notes, figures, failures, recovery,
                recoverySeconds, recoveryNote);
    }

    private static Double plus(Double t, double seconds) {
        return t == null ? null : t + seconds;
    }

    /** This record recovered {@code seconds} after its end. */
    public DisruptionRecord recovered(double seconds) {
        return withVerdict(RECOVERED, seconds, null);
    }

    /** This record not recovered in the time the rule had ({@code note}: how long that was, when it was back). */
    public DisruptionRecord notRecovered(String note) {
        return withVerdict(NOT_RECOVERED, null, note);
    }

    /** This record not judged: {@code why} the rule could not hold before its horizon (or when it was back). */
    public DisruptionRecord notJudged(String why) {
        return withVerdict(NOT_JUDGED, null, why);
    }

    private DisruptionRecord withVerdict(String verdict, Double seconds, String note) {
        return new DisruptionRecord(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome,
                notes, figures, failures, verdict, seconds, note);
    }

    /** This record with what the clients saw while it lasted: failed attempts by class. */
    public DisruptionRecord withFailures(Map<String, Long> seen) {
        return new DisruptionRecord(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome,
                notes, figures, seen, recovery, recoverySeconds, recoveryNote);
    }
}

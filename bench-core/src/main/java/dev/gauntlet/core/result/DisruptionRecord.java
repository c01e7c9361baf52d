package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a planned disruption did, in seconds from the run's start: planned and actual start and end, outcome
 * ({@value #DONE}, {@value #FAILED} or {@value #NOT_STARTED}; {@value #PLANNED} in a driver process that did not inject
 * it, another process of the run did) and the notes it kept (or the error it failed with);
 * for a run with a recovery rule, how long after its end the workload was back to its baseline
 * ({@code recoverySeconds}, {@code recovery} = {@value #RECOVERED}) or that it never was before the phase ended
 * ({@value #NOT_RECOVERED}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds,
                               Double startSeconds, Double endSeconds, String outcome, List<String> notes,
                               String recovery, Double recoverySeconds) {

    public static final String RECOVERED = "recovered";
    public static final String NOT_RECOVERED = "not recovered";

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
    }

    public DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds, Double startSeconds,
                            Double endSeconds, String outcome, List<String> notes) {
        this(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome, notes, null, null);
    }

    /** Whether this process injected it (false: another process of the run did, and this is its plan). */
    public boolean injected() {
        return !PLANNED.equals(outcome);
    }

    /** This record {@code seconds} later: on a timeline that starts that much earlier (a merge's). */
    public DisruptionRecord shifted(double seconds) {
        return new DisruptionRecord(name, plannedStartSeconds + seconds, plus(plannedEndSeconds, seconds),
                plus(startSeconds, seconds), plus(endSeconds, seconds), outcome, notes, recovery, recoverySeconds);
    }

    private static Double plus(Double t, double seconds) {
        return t == null ? null : t + seconds;
    }

    /** This record with a recovery verdict: seconds after its end, or null when it did not recover. */
    public DisruptionRecord withRecovery(Double seconds) {
        return new DisruptionRecord(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome,
                notes, seconds != null ? RECOVERED : NOT_RECOVERED, seconds);
    }
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a planned disruption did, in seconds from the run's start: planned and actual start and end, outcome
 * ({@value #DONE}, {@value #FAILED} or {@value #NOT_STARTED}) and the notes it kept (or the error it failed with);
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

    public DisruptionRecord {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds, Double startSeconds,
                            Double endSeconds, String outcome, List<String> notes) {
        this(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome, notes, null, null);
    }

    /** This record with a recovery verdict: seconds after its end, or null when it did not recover. */
    public DisruptionRecord withRecovery(Double seconds) {
        return new DisruptionRecord(name, plannedStartSeconds, plannedEndSeconds, startSeconds, endSeconds, outcome,
                notes, seconds != null ? RECOVERED : NOT_RECOVERED, seconds);
    }
}

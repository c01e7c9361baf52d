package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What a planned disruption did, in seconds from the run's start: planned and actual start and end, outcome
 * ({@value #DONE}, {@value #FAILED} or {@value #NOT_STARTED}) and the notes it kept (or the error it failed with).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DisruptionRecord(String name, double plannedStartSeconds, Double plannedEndSeconds,
                               Double startSeconds, Double endSeconds, String outcome, List<String> notes) {

    public static final String DONE = "done";
    public static final String FAILED = "failed";
    public static final String NOT_STARTED = "not started";

    public DisruptionRecord {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}

package dev.gauntlet.core.history;

import dev.gauntlet.core.result.RunResult;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.stream.Collectors;

/**
 * One run in a history: its result and where it was read from, so a change point names a run a person can open.
 *
 * @param result the run
 * @param source its directory, or the store and its run id
 */
public record HistoryRun(RunResult result, String source) {

    /** When the run started; {@link Instant#EPOCH} for a result without a readable start (it sorts first). */
    public Instant startedAt() {
        try {
            return result.startedAt() == null ? Instant.EPOCH : Instant.parse(result.startedAt());
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }

    /** The run's labels as {@code release=25.2 host=db7}, or empty. */
    public String labels() {
        return result.labels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    /**
     * The value a history is ordered by ({@code --by NAME}): the run's label of that name, else its parameter; null
     * when it has neither.
     */
    public String value(String name) {
        String label = result.labels().get(name);
        if (label != null) {
            return label;
        }
        Object parameter = result.parameters().get(name);
        return parameter == null ? null : String.valueOf(parameter);
    }
}

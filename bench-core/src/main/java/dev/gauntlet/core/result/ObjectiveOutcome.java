package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Locale;

/**
 * How a run stood against one of its objectives ({@code --slo}).
 *
 * @param objective the objective as the user typed it, e.g. {@code p99(newOrder) <= 50ms}
 * @param measured  the run's value, in {@code unit}; null when nothing was measured to judge by
 * @param unit      {@code ms}, {@code ops/s}, {@code %} (a share, stored as 0-1) or empty (a metric's own)
 * @param met       whether the run met it (false when nothing was measured)
 * @param why       why it could not be judged, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ObjectiveOutcome(String objective, Double measured, String unit, boolean met, String why) {

    /** {@code MET} or {@code MISSED}. */
    public String verdict() {
        return met ? "MET" : "MISSED";
    }

    /** {@code MISSED p99(newOrder) <= 50ms: 71.0 ms}, the verdict padded: one line of a console's list. */
    public String line() {
        return String.format(Locale.ROOT, "%-6s %s: %s", verdict(), objective, value());
    }

    /** The measured value as people read it: {@code 38.2 ms}, {@code 4,100 ops/s}, {@code 0.12%}. */
    public String value() {
        if (measured == null) {
            return "not measured: " + why;
        }
        return switch (unit) {
            case "ms" -> String.format(Locale.ROOT, measured < 10 ? "%.3f ms" : "%,.1f ms", measured);
            case "ops/s" -> String.format(Locale.ROOT, "%,.1f ops/s", measured);
            case "%" -> String.format(Locale.ROOT, "%.3f%%", measured * 100);
            default -> String.format(Locale.ROOT, Math.abs(measured) >= 1000 ? "%,.1f" : "%.4g", measured);
        };
    }
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A gauge over the measured phase: its last value, the smallest and largest it showed at an interval's end, and its
 * contract ({@link GaugeInfo}: level or rate, and how driver processes' values merge; absent in results written
 * before gauges declared it, which are read as {@link GaugeInfo#UNDECLARED}).
 */
public record GaugeSummary(long last, long min, long max, @JsonInclude(JsonInclude.Include.NON_NULL) GaugeInfo info) {

    public GaugeSummary(long last, long min, long max) {
        this(last, min, max, null);
    }

    /** The declared contract, or what undeclared gauges had. */
    public GaugeInfo declared() {
        return info == null ? GaugeInfo.UNDECLARED : info;
    }

    /** This summary with {@code value} read at one more interval's end. */
    public GaugeSummary and(long value) {
        return new GaugeSummary(value, Math.min(min, value), Math.max(max, value), info);
    }

    /** Several processes' summaries of one gauge, merged component by component by the first's declared rule. */
    public static GaugeSummary merge(List<GaugeSummary> parts) {
        GaugeInfo info = parts.get(0).info();
        GaugeInfo.Merge rule = parts.get(0).declared().merge();
        return new GaugeSummary(rule.of(parts.stream().mapToLong(GaugeSummary::last).toArray()),
                rule.of(parts.stream().mapToLong(GaugeSummary::min).toArray()),
                rule.of(parts.stream().mapToLong(GaugeSummary::max).toArray()), info);
    }
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How to read a workload metric, declared by the workload where it defines the metric: which way is better
 * (so a comparison names the right winner; nothing is guessed from the metric's name), and whether the values of
 * driver processes that ran at the same time add up (tpmC does; a ratio, a per-operation cost or a confidence
 * interval does not, and a merge drops it).
 *
 * @param better   which way the metric should move
 * @param additive true when the merged value of concurrent processes is the sum of theirs
 */
public record MetricInfo(Better better, boolean additive) {

    /** Which way a metric should move. */
    public enum Better {
        HIGHER, LOWER,
        /** Descriptive: a count or setting that is neither good nor bad, e.g. keys written or a confidence interval. */
        NEITHER;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Better parse(String s) {
            return s == null ? NEITHER : valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    public MetricInfo {
        better = better == null ? Better.NEITHER : better;
    }

    /** Higher is better; not additive. Chain {@link #addsUp()} for rates and counts of concurrent processes. */
    public static MetricInfo higher() {
        return new MetricInfo(Better.HIGHER, false);
    }

    public static MetricInfo lower() {
        return new MetricInfo(Better.LOWER, false);
    }

    public static MetricInfo neither() {
        return new MetricInfo(Better.NEITHER, false);
    }

    /** The same, and the values of concurrent driver processes add up. */
    public MetricInfo addsUp() {
        return new MetricInfo(better, true);
    }

    /** What a result written before metrics declared themselves says: nothing, so no winner and no merge. */
    public static final MetricInfo UNDECLARED = new MetricInfo(Better.NEITHER, false);
}

package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/**
 * A gauge's contract, declared where the gauge is defined (as {@link MetricInfo} is for metrics): whether its value
 * is a level or a rate, and how the values of driver processes of one run merge.
 *
 * @param kind  {@link Kind#LEVEL}: a reading at a moment (a table's size, replication lag), read shortly before each
 *              interval closes; {@link Kind#RATE}: what was counted since the previous reading (wait-event samples),
 *              read at every interval close, at phase boundaries and at the end, so each interval holds exactly its
 *              own and the measured intervals add up to the measured phase's
 * @param merge how the values of concurrent driver processes merge
 */
public record GaugeInfo(Kind kind, Merge merge) {

    /** What a result written before gauges declared themselves had: levels, summed by a merge. */
    public static final GaugeInfo UNDECLARED = new GaugeInfo(Kind.LEVEL, Merge.SUM);

    public GaugeInfo {
        kind = kind == null ? Kind.LEVEL : kind;
        merge = merge == null ? Merge.SUM : merge;
    }

    public static GaugeInfo level(Merge merge) {
        return new GaugeInfo(Kind.LEVEL, merge);
    }

    public static GaugeInfo rate(Merge merge) {
        return new GaugeInfo(Kind.RATE, merge);
    }

    /** A reading at a moment, or a count since the previous reading. */
    public enum Kind {
        LEVEL, RATE;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Kind parse(String s) {
            return s == null ? LEVEL : valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    /** How the values concurrent driver processes report for one gauge become the whole run's. */
    public enum Merge {
        /** Each process reports its own share (consumer lag over its partitions): they add up. */
        SUM,
        /**
         * Every process read the same server-wide quantity (table sizes, wait events of the database's sessions):
         * the median of their readings (of two, their mean), never their sum.
         */
        SERVER,
        /** The largest is meant (replication lag, the oldest message's age): the largest reading. */
        MAX;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Merge parse(String s) {
            return s == null ? SUM : valueOf(s.toUpperCase(Locale.ROOT));
        }

        /** The merged value of the processes' {@code values} (at least one). */
        public long of(long... values) {
            return switch (this) {
                case SUM -> Arrays.stream(values).sum();
                case MAX -> Arrays.stream(values).max().orElseThrow();
                case SERVER -> {
                    long[] sorted = values.clone();
                    Arrays.sort(sorted);
                    int n = sorted.length;
                    yield n % 2 == 1 ? sorted[n / 2] : Math.round((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0);
                }
            };
        }
    }
}

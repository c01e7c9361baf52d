package dev.gauntlet.core.result;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How to read a workload metric, declared by the workload where it defines the metric: which way is better
 * (so a comparison names the right winner; nothing is guessed from the metric's name), and how the values of driver
 * processes that ran at the same time merge into the whole run's ({@link Merge}: tpmC adds up; the server's own count
 * of New-Orders is the same server read by each; driver CPU per transaction is a mean weighted by transactions; a
 * confidence interval does not merge, and a merge drops it).
 *
 * @param better   which way the metric should move
 * @param additive true when the merge is {@link Merge#SUM} (kept for results written before {@code merge} existed)
 * @param merge    how concurrent processes' values merge
 */
public record MetricInfo(Better better, boolean additive, Merge merge) {

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

    /**
     * How the values of driver processes of one run merge. The processes are measured over the same window
     * ({@code --start-at}); the server-side rules are exact then and close when the windows are offset.
     */
    public enum Merge {
        /** The processes' values add up: rates and counts of their own work (tpmC, messages per second). */
        SUM,
        /**
         * Each process read the same server-wide quantity (the server's New-Orders per minute): the median of their
         * readings, so one process's misreading does not move it (of two, their mean).
         */
        SERVER,
        /**
         * A process's own cost per completed operation (driver CPU, round trips): the mean weighted by each
         * process's completed operations, i.e. the total cost over the total operations.
         */
        PER_OPERATION,
        /**
         * A server-wide cost over the process's own completed operations (server CPU per transaction): the server's
         * total (the median of value x operations, as for {@link #SERVER}) over all processes' operations.
         */
        SERVER_PER_OPERATION,
        /** The worst of the processes' own (the most a driver fell behind its schedule): their largest value. */
        MAX,
        /** Cannot be merged from the processes' values (a ratio of other things, a confidence interval): dropped. */
        NONE;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Merge parse(String s) {
            return s == null ? null : valueOf(s.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    public MetricInfo {
        better = better == null ? Better.NEITHER : better;
        merge = merge != null ? merge : additive ? Merge.SUM : Merge.NONE;
        additive = merge == Merge.SUM;
    }

    public MetricInfo(Better better, Merge merge) {
        this(better, merge == Merge.SUM, merge);
    }

    /** Higher is better; not merged. Chain {@link #addsUp()} and the like to say how processes' values merge. */
    public static MetricInfo higher() {
        return new MetricInfo(Better.HIGHER, Merge.NONE);
    }

    public static MetricInfo lower() {
        return new MetricInfo(Better.LOWER, Merge.NONE);
    }

    public static MetricInfo neither() {
        return new MetricInfo(Better.NEITHER, Merge.NONE);
    }

    /** The same, and the values of concurrent driver processes add up ({@link Merge#SUM}). */
    public MetricInfo addsUp() {
        return new MetricInfo(better, Merge.SUM);
    }

    /** The same, a server-wide quantity every process saw ({@link Merge#SERVER}). */
    public MetricInfo serverWide() {
        return new MetricInfo(better, Merge.SERVER);
    }

    /** The same, a process's own cost per completed operation ({@link Merge#PER_OPERATION}). */
    public MetricInfo perOperation() {
        return new MetricInfo(better, Merge.PER_OPERATION);
    }

    /** The same, a server-wide cost over the process's completed operations ({@link Merge#SERVER_PER_OPERATION}). */
    public MetricInfo serverPerOperation() {
        return new MetricInfo(better, Merge.SERVER_PER_OPERATION);
    }

    /** What a result written before metrics declared themselves says: nothing, so no winner and no merge. */
    public static final MetricInfo UNDECLARED = new MetricInfo(Better.NEITHER, Merge.NONE);
}

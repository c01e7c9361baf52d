package dev.gauntlet.core.search;

import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import java.util.List;

/**
 * How a workload runs a step at a rate, reads what the step achieved, and judges it beyond the objectives. The
 * defaults are the plan's own pacing's ({@link #plan()}).
 */
public interface Pacing<P> {
    /** The plan of a step at {@code rate} (0: unthrottled, the clients as fast as they go). */
    RunPlan at(P prepared, RunPlan base, double rate);

    /** What a step achieved, in the search's unit. */
    double achieved(RunResult r);

    /** The first rate to try, as the user gave it ({@code --rate}); 0: a share of the raw rate. */
    default double start(RunPlan base) {
        return base.rate();
    }

    /** A rate as the workload can pace it (whole batches, whole operations a second). */
    default double round(double rate) {
        return Math.max(1, Math.round(rate));
    }

    /** The rate's unit in words. */
    default String unit() {
        return "ops/s";
    }

    /** The share of the raw rate the search starts at when no start is given. */
    default double startShare() {
        return 0.5;
    }

    /** The search ends when the lowest miss is within this many units of the highest rate met, whatever the share. */
    default double finest() {
        return 1;
    }

    /** The workload's own reasons a step was not sustained, besides the objectives; empty when it was. */
    default List<String> failures(RunResult step) {
        return List.of();
    }

    /** The workload's own criterion in words, for the summary; empty for none. */
    default String criterion() {
        return "";
    }

    /** The most the search may try (bench-tpcc: the warehouses loaded); unbounded by default. */
    default double most(P prepared) {
        return Double.POSITIVE_INFINITY;
    }

    /**
     * Whether the first step runs unthrottled to find the scale the search steps on (the raw rate); without it
     * the scale is {@link #most}.
     */
    default boolean probesRaw() {
        return true;
    }

    /** The option that asks for the search, as its refusals name it. */
    default String option() {
        return "--find-max-rate";
    }

    /** What a step's directory and variant start with: {@code rate} gives {@code rate-4100}. */
    default String stepLabel() {
        return "rate";
    }

    /** The answer in words, before its figure: {@code highest rate meeting the objectives}. */
    default String answerWords() {
        return "highest rate meeting the objectives";
    }

    /**
     * Objectives every step is judged by besides {@code --slo} (or the defaults when it gives none): bench-tpcc's
     * warehouse search always judges the specification's limits. None by default.
     */
    default List<String> objectives() {
        return List.of();
    }

    /** The workload's headline figures of a step, for its line and the answer ({@code tpmC 154.2}); none by default. */
    default List<String> figures(RunResult step) {
        return List.of();
    }

    /** The rate on the plan itself (its one role's, as {@code --rate} sets it), achieved = operations a second. */
    static <P> Pacing<P> plan() {
        return new Pacing<>() {
            @Override
            public RunPlan at(P prepared, RunPlan base, double rate) {
                return base.withRate(rate);
            }

            @Override
            public double achieved(RunResult r) {
                return r.measuredSeconds() > 0 ? r.totalCount() / r.measuredSeconds() : 0;
            }
        };
    }
}

package dev.gauntlet.core.history;

import dev.gauntlet.core.result.MetricInfo.Better;

/**
 * A change point: from {@link #run} on, a figure of a series moved, by a permutation test at {@link #pValue}.
 *
 * @param series   the series it is in
 * @param figure   the figure that moved
 * @param position the run's place in the series (0 = the oldest)
 * @param run      the first run after the change
 * @param before   the figure's mean over the runs from the previous change point (or the first run) to this one
 * @param after    its mean from this run to the next change point (or the last run)
 * @param pValue   the permutation test's p-value
 */
public record Change(Series series, Figure figure, int position, HistoryRun run, double before, double after,
                     double pValue) {

    /** How a change reads against the figure's declared direction. */
    public enum Verdict {
        BETTER, WORSE,
        /** The figure has no better direction (a descriptive metric), or did not move. */
        NEITHER;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The change of the mean in percent of the mean before (infinite when the mean before was zero). */
    public double changePercent() {
        if (before == 0) {
            return after == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, after);
        }
        return (after - before) / Math.abs(before) * 100;
    }

    public Verdict verdict() {
        if (after == before || figure.better() == Better.NEITHER) {
            return Verdict.NEITHER;
        }
        boolean up = after > before;
        return up == (figure.better() == Better.HIGHER) ? Verdict.BETTER : Verdict.WORSE;
    }

    /** True when the change is worse and happened within the last {@code recent} runs of its series. */
    public boolean regressionWithin(int recent) {
        return verdict() == Verdict.WORSE && position >= series.runs().size() - recent;
    }
}

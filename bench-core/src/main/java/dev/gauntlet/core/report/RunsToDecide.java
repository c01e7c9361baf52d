package dev.gauntlet.core.report;

/**
 * What more runs would do for an inconclusive figure, at the spread and the difference observed (see {@link
 * Delta#runsToDecide}): decide it with about so many runs per side, need more than {@link #LIMIT}, or never decide
 * it, because the difference observed can neither clear zero as a winner nor fit within ±threshold.
 */
public sealed interface RunsToDecide {

    /** The most runs per side counted; a figure needing more is reported as needing more than this. */
    int LIMIT = 1_000;

    /** The words a table cell or a verdict uses, e.g. "~9 runs per side". */
    String text();

    /** About {@code perSide} runs on each side would decide the figure. */
    record Runs(int perSide) implements RunsToDecide {
        @Override
        public String text() {
            return "~" + Figures.count(perSide) + " runs per side";
        }
    }

    /** More than {@link #LIMIT} runs on each side would be needed. */
    record MoreThanLimit() implements RunsToDecide {
        @Override
        public String text() {
            return "more than " + Figures.count(LIMIT) + " runs per side";
        }
    }

    /**
     * No number of runs would decide it at the difference observed: the change is below the threshold (so no
     * winner), and the per-run means differ by at least the threshold (so no Equal either). A pooled percentile and
     * the mean of the runs' percentiles can disagree like this.
     */
    record Never() implements RunsToDecide {
        @Override
        public String text() {
            return "more runs alone would not decide it";
        }
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;

/** How many checks of a run passed, failed and were skipped: the line beside an overall PASS or FAIL. */
record CheckTally(int passed, int failed, int skipped) {

    static CheckTally of(RunResult run) {
        int pass = 0;
        int fail = 0;
        int skip = 0;
        for (Check c : run.checks()) {
            if (c.status() == Check.Status.PASS) {
                pass++;
            } else if (c.status() == Check.Status.FAIL) {
                fail++;
            } else {
                skip++;
            }
        }
        return new CheckTally(pass, fail, skip);
    }

    int total() {
        return passed + failed + skipped;
    }

    @Override
    public String toString() {
        return total() + (total() == 1 ? " check: " : " checks: ") + passed + " passed, " + failed + " failed, "
                + skipped + " skipped";
    }
}

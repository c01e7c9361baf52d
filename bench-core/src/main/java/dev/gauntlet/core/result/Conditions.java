package dev.gauntlet.core.result;

import java.util.Arrays;
import java.util.Set;

/**
 * Which of a run's parameters are conditions of the test, so that runs differing in them are unlike (a comparison
 * warns, a history starts another series), and which only describe one run: the seed, and whatever else the
 * workload drew at random for it or that otherwise names this run alone (TPC-C's NURand constants, drawn at each
 * load; the fresh directory a RocksDB run writes in), which it lists under {@value #DRAWN}.
 */
public final class Conditions {

    /**
     * The parameter where a workload names, comma-separated, the parameters it drew at random for this run (or that
     * name this run alone, like a fresh directory): recorded so the run can be repeated or found, never a condition
     * (like the seed).
     */
    public static final String DRAWN = "drawnAtRandom";

    /** Parameters that describe one run and are never conditions. */
    private static final Set<String> DESCRIPTIVE = Set.of("seed", DRAWN);

    private Conditions() {
    }

    /** True unless the parameter is the seed, the list of drawn parameters, or named in the run's list. */
    public static boolean isCondition(RunResult run, String parameter) {
        if (DESCRIPTIVE.contains(parameter)) {
            return false;
        }
        Object drawn = run.parameters().get(DRAWN);
        return drawn == null || Arrays.stream(drawn.toString().split(",")).map(String::strip)
                .noneMatch(parameter::equals);
    }
}

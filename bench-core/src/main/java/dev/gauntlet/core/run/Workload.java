package dev.gauntlet.core.run;

import java.util.SplittableRandom;

/**
 * A workload as the runner sees it: a script per client. It knows SQL (or keys and values) and business
 * rules; it never touches threads, clocks, histograms, retries or reconnects.
 */
public interface Workload<S> {

    /** Operation names in display order; operations not listed still get recorded, after these. */
    java.util.List<String> operationNames();

    /**
     * The script for client {@code index} (0-based) of {@code clients}. {@code random} is seeded from the
     * run's seed and the index, so a run with the same seed makes the same choices.
     */
    ClientScript<S> client(int index, int clients, SplittableRandom random);
}

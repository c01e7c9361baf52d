package dev.gauntlet.core.cli;

import dev.gauntlet.core.objective.Objective;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * What a run is judged by ({@code --slo}) and the search for the most load that meets it ({@code --find-max-rate}):
 * part of every workload's {@code run} through {@link RunOptions}. The search itself is {@code core.search.RateSearch}.
 */
public final class CapacityOptions {

    /**
     * What {@code --find-max-rate} judges its steps by when no {@code --slo} is given, unless the workload has its own
     * (bench-tpcc: the specification's 90th-percentile limits; bench-queue: its write p99 budget).
     */
    public static final List<String> DEFAULT_OBJECTIVES = List.of("p99 <= 100ms", "errors <= 0.001");

    @Option(names = "--slo", paramLabel = "OBJECTIVE",
            description = {"An objective the run is judged by (repeatable): " + Objective.SYNTAX_IN_HELP + ". Latencies are "
                    + "from each operation's intended start, read from the histograms (merged runs on the merged "
                    + "ones); errors is the share of due operations that failed or were never issued. Quote it: "
                    + "--slo 'p99(newOrder) <= 50ms' --slo 'errors <= 0.1%%'.",
                    "The summary, result.json (objectives) and report.md give each one's measured value, MET or "
                            + "MISSED. Exit status 4 when the run missed one (1 still wins: a failed check or run)."})
    List<String> slo = new ArrayList<>();

    @Option(names = "--find-max-rate",
            description = {"Search for the highest rate that meets the objectives (--slo; without any, 'p99 <= 100ms' "
                    + "and 'errors <= 0.001' (0.1%%), or the workload's own where its help says so): one run with the clients back to back (the raw rate), then "
                    + "runs of --duration at rising rates (from --rate, else half the raw rate, up by --rate-step) "
                    + "until one misses, then halving the gap until it is within --rate-resolution, then a "
                    + "confirmation run at the answer. A rate counts as missed when it missed twice (a first miss "
                    + "runs again at once). Each throttled step's priming lasts until its schedule has caught up "
                    + "(the first one's also until the compilers settle), so no backlog is measured; a step whose "
                    + "schedule never catches up misses.",
                    "Each step is a run of its own (step-NN-.../ with its result and report); search.md lists them "
                            + "with the answer in one line, capacity.png and capacity.html draw latency against "
                            + "throughput with the budgets. Exit status 4 when no rate met the objectives."})
    boolean findMaxRate;

    @Option(names = "--rate-step", paramLabel = "PER_S", defaultValue = "0",
            description = "--find-max-rate: how much each step adds until one misses; 0 (default): 15%% of the raw rate.")
    double rateStep;

    @Option(names = "--rate-resolution", paramLabel = "PERCENT", defaultValue = "5",
            description = "--find-max-rate: stop when the lowest rate missed is within this share of the highest met "
                    + "(default: ${DEFAULT-VALUE}).")
    double rateResolution;

    /** The objectives of {@code --slo}, each refused in one line if it is not one. */
    public List<Objective> objectives() {
        try {
            return Objective.parseAll(slo);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--slo " + e.getMessage());
        }
    }

    /** Whether {@code --find-max-rate} was given. */
    public boolean findMaxRate() {
        return findMaxRate;
    }

    /** {@code --rate-step}: what each step adds; 0 for 15% of the raw rate. */
    public double rateStep() {
        if (rateStep < 0 || !Double.isFinite(rateStep)) {
            throw new BadInputException("--rate-step must not be negative (got " + rateStep + ")");
        }
        return rateStep;
    }

    /** {@code --rate-resolution} as a share (0.05 for 5%). */
    public double resolution() {
        if (!(rateResolution > 0) || rateResolution >= 100) {
            throw new BadInputException("--rate-resolution must be a percentage above 0 and below 100 (got "
                    + rateResolution + ")");
        }
        return rateResolution / 100;
    }
}

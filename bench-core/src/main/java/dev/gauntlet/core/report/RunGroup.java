package dev.gauntlet.core.report;

import dev.gauntlet.core.result.RunResult;
import java.util.List;

/**
 * One side of a comparison: the repeated runs of one variant (A1, A2, ... of an experiment run A B A B), or a single
 * run. Figures shown for the side come from all its runs together (histograms summed, counts over the total
 * measured time); the spread between its runs is what gives a comparison its confidence.
 *
 * @param label the column header and winner name
 * @param runs  the runs, at least one
 */
public record RunGroup(String label, List<LabelledRun> runs) {

    public RunGroup {
        if (label == null || label.isBlank()) {
            throw new IllegalArgumentException("a group of runs needs a label");
        }
        if (runs == null || runs.isEmpty()) {
            throw new IllegalArgumentException("group " + label + " has no runs");
        }
        runs = List.copyOf(runs);
    }

    /** A side of one run, named by the run's label. */
    public static RunGroup of(LabelledRun run) {
        return new RunGroup(run.label(), List.of(run));
    }

    /** Repeated runs of one variant, named by the first run's label (its variant, usually). */
    public static RunGroup of(List<LabelledRun> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a group of runs needs at least one run");
        }
        return new RunGroup(runs.get(0).label(), runs);
    }

    public int size() {
        return runs.size();
    }

    public List<RunResult> results() {
        return runs.stream().map(LabelledRun::result).toList();
    }

    /** The first run: what the group says about workload, parameters and environment. */
    public RunResult first() {
        return runs.get(0).result();
    }

    /** Where the group came from: the source of a single run, else the number of runs. */
    public String source() {
        return runs.size() == 1 ? runs.get(0).source() : runs.size() + " runs";
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Results checked to be driver processes of one run before {@link ResultMerge} merges them, with what the checks
 * found: the same workload, variant, reporting period and recovery rule; every run once; {@code --worker} shares all there, each
 * once; measured windows that all overlap.
 *
 * @param share         the inputs' {@code --worker} shares together, or null when none records one
 * @param runIds        every run merged, once
 * @param origin        the earliest input's start, in epoch seconds: where the merged timeline begins
 * @param measuredStart the earliest measured start, in epoch seconds
 * @param measuredEnd   the latest measured end, in epoch seconds
 */
record MergeInputs(WorkerShare share, List<String> runIds, double origin, double measuredStart, double measuredEnd) {

    private static final String REPORT_EVERY = "reportEvery";

    /** The wall-clock span over which one input measured, in epoch seconds. */
    private record Window(double start, double end) {
    }

    /**
     * Checks {@code runs} (at least one) in the order their problems are reported: the first found is refused.
     *
     * @throws ResultFormatException when the inputs cannot be processes of one run
     */
    static MergeInputs check(List<RunResult> runs) {
        requireSame(runs, RunResult::workload, "workloads");
        requireSame(runs, RunResult::variant, "variants");
        requireSame(runs, r -> String.valueOf(r.parameters().get(REPORT_EVERY)), "reporting periods (--report-every)");
        requireSame(runs, r -> String.valueOf(r.recoveryRule()), "recovery rules (the plans' recovery)");
        WorkerShare share = shares(runs);
        List<String> ids = distinctRunIds(runs);
        List<Window> windows = runs.stream().map(MergeInputs::window).toList();
        requireOverlap(runs, windows);
        double origin = runs.stream().mapToDouble(MergeInputs::startedAtSeconds).min().orElseThrow();
        double measuredStart = windows.stream().mapToDouble(Window::start).min().orElseThrow();
        double measuredEnd = windows.stream().mapToDouble(Window::end).max().orElseThrow();
        return new MergeInputs(share, ids, origin, measuredStart, measuredEnd);
    }

    private static void requireSame(List<RunResult> runs, Function<RunResult, String> field, String what) {
        Set<String> values = runs.stream().map(r -> String.valueOf(field.apply(r)))
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (values.size() > 1) {
            throw new ResultFormatException("cannot merge results of different " + what + " (" + String.join(", ", values)
                    + "): merge combines driver processes of one run; use 'report compare' to compare runs");
        }
    }

    /** Every run merged, once: the same run given twice (or inside two merged inputs) would count twice. */
    private static List<String> distinctRunIds(List<RunResult> runs) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            for (String id : runs.get(i).leafRunIds()) {
                Integer before = seen.putIfAbsent(id, i);
                if (before != null) {
                    throw new ResultFormatException("inputs " + (before + 1) + " and " + (i + 1)
                            + " contain the same run (runId " + id + "): each driver process may be merged once");
                }
            }
        }
        return List.copyOf(seen.keySet());
    }

    static double startedAtSeconds(RunResult r) {
        try {
            return Instant.parse(r.startedAt()).toEpochMilli() / 1000.0;
        } catch (DateTimeParseException | NullPointerException e) {
            throw new ResultFormatException("a result without a valid startedAt (" + r.startedAt()
                    + ") cannot be placed in time, so it cannot be merged");
        }
    }

    /** The measure phase in wall-clock time; a result without phases measured up to its end. */
    private static Window window(RunResult r) {
        double start = startedAtSeconds(r);
        for (Phase p : r.phases()) {
            if (Phase.MEASURE.equals(p.name())) {
                return new Window(start + p.startSeconds(), start + p.endSeconds());
            }
        }
        double end = r.endedAt() == null ? start + r.measuredSeconds() : Instant.parse(r.endedAt()).toEpochMilli() / 1000.0;
        return new Window(end - r.measuredSeconds(), end);
    }

    private static void requireOverlap(List<RunResult> runs, List<Window> windows) {
        double latestStart = windows.stream().mapToDouble(Window::start).max().orElseThrow();
        double earliestEnd = windows.stream().mapToDouble(Window::end).min().orElseThrow();
        if (latestStart >= earliestEnd) {
            StringBuilder spans = new StringBuilder();
            for (int i = 0; i < runs.size(); i++) {
                Window w = windows.get(i);
                spans.append(i == 0 ? "" : ", ").append("input ").append(i + 1).append(' ')
                        .append(Instant.ofEpochMilli(Math.round(w.start() * 1000))).append(" to ")
                        .append(Instant.ofEpochMilli(Math.round(w.end() * 1000)));
            }
            throw new ResultFormatException("the measured windows do not all overlap (" + spans + "): merge combines "
                    + "driver processes that ran at the same time; use 'report compare' for runs made one after another");
        }
    }

    /**
     * The inputs' {@code --worker} shares together, or null when none records one (processes split by hand). Shares
     * must all be there, each once: a missing worker would leave its part out of the totals, a doubled one count
     * twice.
     */
    private static WorkerShare shares(List<RunResult> runs) {
        List<RunResult> shared = runs.stream().filter(r -> r.parameters().containsKey(WorkerShare.PARAMETER)).toList();
        if (shared.isEmpty()) {
            return null;
        }
        if (shared.size() < runs.size()) {
            int without = runs.indexOf(runs.stream().filter(r -> !shared.contains(r)).findFirst().orElseThrow());
            throw new ResultFormatException("input " + (without + 1) + " records no --worker share while others do: "
                    + "merge the parts of one split run");
        }
        WorkerShare all;
        try {
            all = WorkerShare.union(runs.stream().map(WorkerShare::of).toList());
        } catch (IllegalArgumentException e) {
            throw new ResultFormatException("cannot merge: " + e.getMessage());
        }
        if (!all.whole()) {
            throw new ResultFormatException("the results are workers " + all.label() + " of a run: worker "
                    + all.missing() + " is missing (its part would be left out of the totals)");
        }
        return all;
    }
}

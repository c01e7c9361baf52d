package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One phase of a run with what its intervals add up to: the failures by class ({@code connection}, {@code timeout},
 * {@code retried}...) and the unavailable seconds, the summed length of its intervals in which no operation of any
 * kind committed (a long run's result keeps its intervals downsampled, each with the unavailable seconds of those it
 * merges, so the figure is the reporting intervals'). Intervals close at every phase boundary, so each interval
 * belongs to exactly one phase: the one of its name (and, when a plan names several phases alike, the one whose
 * stretch holds the interval's end).
 */
record PhaseSummary(Phase phase, Map<String, Long> failures, double unavailableSeconds) {

    /** Tolerance for an interval's end on a phase boundary (times are rounded where they are recorded). */
    private static final double EDGE_SECONDS = 1e-3;

    PhaseSummary {
        failures = Collections.unmodifiableMap(new TreeMap<>(failures));
    }

    static List<PhaseSummary> of(RunResult run) {
        List<PhaseSummary> summaries = new ArrayList<>();
        for (Phase phase : run.phases()) {
            boolean nameIsUnique = run.phases().stream().filter(p -> p.name().equals(phase.name())).count() == 1;
            Map<String, Long> failures = new TreeMap<>();
            double unavailable = 0;
            for (Interval i : run.intervals()) {
                if (!phase.name().equals(i.phase()) || !nameIsUnique && !holds(phase, i.t())) {
                    continue;
                }
                i.failures().forEach((failureClass, n) -> failures.merge(failureClass, n, Long::sum));
                unavailable += i.unavailableSeconds();
            }
            summaries.add(new PhaseSummary(phase, failures, unavailable));
        }
        return summaries;
    }

    private static boolean holds(Phase phase, double t) {
        return t > phase.startSeconds() + EDGE_SECONDS && t <= phase.endSeconds() + EDGE_SECONDS;
    }

    double seconds() {
        return phase.endSeconds() - phase.startSeconds();
    }

    /** The failures as one cell: {@code connection 12, timeout 3}, or a dash when there were none. */
    String failuresText() {
        if (failures.isEmpty()) {
            return "—";
        }
        List<String> parts = new ArrayList<>();
        failures.forEach((failureClass, n) -> parts.add(failureClass + " " + Figures.count(n)));
        return String.join(", ", parts);
    }
}

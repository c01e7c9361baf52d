package dev.gauntlet.core.report;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;

/** The disruptions of a run as report.md and the dashboard show them: one row each, with what the clients saw. */
final class DisruptionTable {

    private DisruptionTable() {
    }

    static final String EXPLAINED = "Seconds from the run's start; recovery is how long after a "
            + "disruption's end the workload was back to its baseline; clients saw: the failed attempts by class from "
            + "its start until the workload was back, and the figures the disruption measured itself (gap: seconds "
            + "from the fault to the first write accepted again).";

    /** Each disruption: planned and actual start and end, outcome, recovery and notes (report.md and dashboard). */
    static MarkdownTable of(RunResult run) {
        MarkdownTable d = new MarkdownTable().left("Disruption").right("Planned", "Started", "Ended")
                .left("Outcome", "Recovery", "Clients saw", "Notes");
        for (DisruptionRecord r : run.disruptions()) {
            String planned = Figures.seconds(r.plannedStartSeconds())
                    + (r.plannedEndSeconds() == null ? "" : "-" + Figures.seconds(r.plannedEndSeconds()));
            d.row(r.name(), planned, Figures.secondsOrDash(r.startSeconds()), Figures.secondsOrDash(r.endSeconds()),
                    Figures.orDash(r.outcome()), DisruptionSpan.of(r).recoveryText(), clientsSaw(r),
                    r.notes().isEmpty() ? "—" : String.join("; ", r.notes()));
        }
        return d;
    }

    /** A disruption's figures and the failures the clients saw, e.g. {@code gap 5.4 s; connection 212, ambiguous-commit 1}. */
    static String clientsSaw(DisruptionRecord r) {
        List<String> parts = new ArrayList<>();
        Double gap = r.figures().get(DisruptionRecord.AVAILABILITY_GAP);
        if (gap != null) {
            parts.add("gap " + Figures.seconds(gap));
        }
        r.figures().forEach((k, v) -> {
            if (!k.equals(DisruptionRecord.AVAILABILITY_GAP)) {
                parts.add(k + " " + Figures.metric(v));
            }
        });
        if (r.failures() == null) {
            return r.startSeconds() == null || parts.isEmpty() ? "—" : String.join("; ", parts);
        }
        List<String> failed = new ArrayList<>();
        r.failures().forEach((cls, n) -> {
            if (!cls.equals(dev.gauntlet.core.result.Interval.REOPENED) && n > 0) {
                failed.add(cls + " " + String.format(java.util.Locale.ROOT, "%,d", n));
            }
        });
        parts.add(failed.isEmpty() ? "no failures" : String.join(", ", failed));
        Long reopened = r.failures().get(dev.gauntlet.core.result.Interval.REOPENED);
        if (reopened != null && reopened > 0) {
            parts.add(String.format(java.util.Locale.ROOT, "%,d sessions re-opened", reopened));
        }
        return r.startSeconds() == null ? "—" : String.join("; ", parts);
    }
}

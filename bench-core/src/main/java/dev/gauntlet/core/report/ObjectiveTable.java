package dev.gauntlet.core.report;

import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.RunResult;

/** report.md's first section when the run was given objectives ({@code --slo}): the answer to the user's question. */
final class ObjectiveTable {

    private ObjectiveTable() {
    }

    /** The section, or nothing when the run had no objectives. */
    static String markdown(RunResult run) {
        if (run.objectives().isEmpty()) {
            return "";
        }
        MarkdownTable t = new MarkdownTable().left("Objective", "Measured", "Verdict");
        for (ObjectiveOutcome o : run.objectives()) {
            t.row("`" + o.objective() + "`", o.value(), o.verdict());
        }
        return "## Objectives\n\n" + t.render() + "\n**" + (run.missedAnObjective() ? "Missed" : "Met")
                + "**: latencies from each operation's intended start over the measured phase, read from its "
                + "histograms; errors are the share of due operations that failed or were never issued.\n\n";
    }
}

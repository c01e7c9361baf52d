package dev.gauntlet.core.experiment;

import dev.gauntlet.core.report.Comparison;
import dev.gauntlet.core.report.LabelledRun;
import dev.gauntlet.core.report.RunGroup;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs an experiment: every cell in turn, the whole matrix {@code repeat} times (A B A B ...), each run after its
 * cell's SQL has put the server in that state and the settings were read back; then one {@code comparison.md} with
 * the repeated runs of each cell as one side. A cell whose SQL fails or does not take effect is reported and
 * skipped; the others still run. The restore SQL runs at the end, whatever happened.
 *
 * <p>Output: {@code OUT/<cell>/} for one run per cell, {@code OUT/<cell>/run-<n>/} when repeated, and
 * {@code OUT/comparison.md}.
 */
public final class ExperimentRunner {

    /** Runs the workload once for a cell: the workload reads the cell's levels it interprets (schema, pool mode). */
    @FunctionalInterface
    public interface CellRun {
        /**
         * @param cell             the cell, its SQL already applied
         * @param settingsInEffect settings its SQL asked for, as read back (for the result's parameters)
         * @param outDir           where this run writes its result
         */
        RunResult run(Cell cell, Map<String, String> settingsInEffect, Path outDir);
    }

    /** What an experiment produced: the runs of each cell, the comparison, and what failed. */
    public record Outcome(List<RunGroup> cells, List<String> failures, String markdown, Path comparison) {

        /** Every run of every cell. */
        public java.util.stream.Stream<RunResult> results() {
            return cells.stream().flatMap(g -> g.results().stream());
        }
    }

    private final Experiment experiment;
    private final ServerState server;
    private final double thresholdPercent;
    private final PrintStream out;

    public ExperimentRunner(Experiment experiment, ServerState server, double thresholdPercent, PrintStream out) {
        this.experiment = experiment;
        this.server = server;
        this.thresholdPercent = thresholdPercent;
        this.out = out;
    }

    public Outcome run(Path outDir, CellRun cellRun, String notes) {
        return run(outDir, cellRun, notes, cells -> "");
    }

    /**
     * @param summary the workload's own reading of the cells (a matrix table, an interpretation), put at the top of
     *                the comparison; empty for none
     */
    public Outcome run(Path outDir, CellRun cellRun, String notes, Function<List<RunGroup>, String> summary) {
        List<Cell> cells = experiment.cells();
        Map<Cell, List<LabelledRun>> runs = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        List<Cell> refused = new ArrayList<>();
        int repeat = experiment.repeat();
        out.println("Experiment: " + experiment.title() + " (" + cells.size() + " cells"
                + (repeat > 1 ? " x " + repeat + " runs, alternating" : "") + ": "
                + String.join(", ", cells.stream().map(Cell::label).toList()) + ")");
        try {
            for (int r = 1; r <= repeat; r++) {
                int i = 0;
                for (Cell cell : cells) {
                    i++;
                    if (refused.contains(cell)) {
                        continue;
                    }
                    out.println();
                    out.println("=== " + (repeat > 1 ? "Run " + r + " of " + repeat + ", cell " : "Cell ") + i + " of "
                            + cells.size() + ": " + cell.label()
                            + (cell.statements().isEmpty() ? "" : ": " + String.join("; ", cell.statements())));
                    Map<String, String> inEffect;
                    try {
                        server.apply(cell.statements());
                        inEffect = server.inEffect(cell.requestedSettings());
                    } catch (ServerState.Refused e) {
                        String why = cell.label() + ": " + e.getMessage();
                        out.println("Cell " + why + "; skipping it");
                        failures.add(why);
                        refused.add(cell);
                        continue;
                    }
                    inEffect.forEach((k, v) -> out.println("  in effect: " + k + " = " + v));
                    Path dir = outDir.resolve(cell.directoryName());
                    if (repeat > 1) {
                        dir = dir.resolve("run-" + r);
                    }
                    try {
                        RunResult result = cellRun.run(cell, inEffect, dir);
                        runs.computeIfAbsent(cell, c -> new ArrayList<>()).add(new LabelledRun(cell.label(),
                                outDir.relativize(dir).toString(), result));
                    } catch (RuntimeException e) {
                        failures.add(cell.label() + (repeat > 1 ? " run " + r : "") + ": " + e.getMessage());
                    }
                }
            }
        } finally {
            restore();
        }
        List<RunGroup> groups = new ArrayList<>();
        runs.forEach((cell, list) -> groups.add(new RunGroup(cell.label(), list)));
        String own = groups.size() >= 2 ? summary.apply(groups) : "";
        String markdown = (own.isBlank() ? "" : own.strip() + "\n\n") + markdown(groups, failures, notes);
        Path file = outDir.resolve("comparison.md");
        try {
            AtomicFiles.writeString(file, markdown);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new Outcome(groups, failures, markdown, file);
    }

    private void restore() {
        if (experiment.restore().isEmpty()) {
            return;
        }
        try {
            server.apply(experiment.restore());
            out.println("Restored: " + String.join("; ", experiment.restore()));
        } catch (ServerState.Refused e) {
            out.println("warning: restore failed, the server keeps the last cell's settings: " + e.getMessage());
        }
    }

    private String markdown(List<RunGroup> groups, List<String> failures, String notes) {
        StringBuilder md = new StringBuilder();
        if (groups.size() >= 2) {
            md.append(Comparison.compareGroups(groups, thresholdPercent).markdown());
        } else {
            md.append("# Experiment: ").append(experiment.title()).append("\n\nFewer than two cells completed, "
                    + "so there is nothing to compare.\n");
        }
        md.append("\n## Experiment\n\n").append(experiment.title()).append("\n\n");
        for (Dimension d : experiment.dimensions()) {
            md.append("- ").append(d.name()).append(": ");
            List<String> levels = new ArrayList<>();
            for (Level l : d.levels()) {
                levels.add("`" + l.name() + "`" + (l.statements().isEmpty() ? ""
                        : " (`" + String.join("; ", l.statements()) + "`)"));
            }
            md.append(String.join(", ", levels)).append('\n');
        }
        if (!experiment.restore().isEmpty()) {
            md.append("- afterwards: `").append(String.join("; ", experiment.restore())).append("`\n");
        }
        md.append('\n').append(experiment.repeat() > 1
                ? "Each cell ran " + experiment.repeat() + " times, the cells alternating (A B A B ...), so drift over "
                        + "time falls on every cell alike; every run used the same seed.\n"
                : "Each cell ran once, one after another, with the same seed.\n");
        if (notes != null && !notes.isBlank()) {
            md.append('\n').append(notes.strip()).append('\n');
        }
        if (!failures.isEmpty()) {
            md.append("\n## Cells that failed\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        return md.toString();
    }
}

package dev.gauntlet.core.cli;

import dev.gauntlet.core.report.Comparison;
import dev.gauntlet.core.report.Dashboard;
import dev.gauntlet.core.report.FileSet;
import dev.gauntlet.core.report.LabelledRun;
import dev.gauntlet.core.report.ResultMerge;
import dev.gauntlet.core.report.RunGroup;
import dev.gauntlet.core.report.ChartFonts;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.TimelineFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code report render | dashboard | compare | merge | history}: everything a user does with results after a run, from result.json
 * files alone. Inputs that are not results, and outputs that cannot be written, end in a one-line
 * {@link BadInputException}; outputs are built in memory first and written all or nothing.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        subcommands = {ReportCommand.Render.class, ReportCommand.DashboardPage.class, ReportCommand.Recover.class,
            ReportCommand.Compare.class, ReportCommand.Merge.class, HistoryCommand.class},
        description = {
            "Rebuild, compare and merge reports from result.json files alone; no database is needed.",
            "Every figure is read from the HdrHistograms stored in each result, so an old run re-renders with the "
                    + "numbers it had, and merged or compared percentiles are exact, never averaged."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  ${COMMAND-FULL-NAME} render results/tpcc-20261123-183750-e7315e",
            "  ${COMMAND-FULL-NAME} dashboard results/tpcc-20261123-183750-e7315e",
            "  ${COMMAND-FULL-NAME} recover results/tpcc-20261123-183750-e7315e   # its driver was killed",
            "  ${COMMAND-FULL-NAME} compare results/sync-on results/sync-off --out compare.md",
            "  ${COMMAND-FULL-NAME} merge driver-1 driver-2 driver-3 --out results/tpcc-merged",
            "  ${COMMAND-FULL-NAME} history results --fail-on-regression"})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(),
                "Missing subcommand: choose render, dashboard, recover, compare, merge or history");
    }

    /** A command that writes files into one run's directory from its result.json. */
    abstract static class RunDirectoryCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR",
                description = "A run directory holding result.json (or the result.json file itself).")
        Path dir;

        /** The directory the result is in, where the files go. */
        Path outDir() {
            return ResultFile.locate(dir).toAbsolutePath().normalize().getParent();
        }
    }

    @Command(name = "render", mixinStandardHelpOptions = true,
            description = {
                "Re-renders report.md and its charts (throughput.png, latency.png) in a run directory from its "
                        + "result.json.",
                "Use it after upgrading Gauntlet or when the report was deleted; existing files are replaced "
                        + "all at once, never half-written."},
            footerHeading = "%nExamples:%n",
            footer = {
                "  ${COMMAND-FULL-NAME} results/tpcc-20261123-183750-e7315e",
                "  ${COMMAND-FULL-NAME} results/sync/off/run-2/result.json   # one run of an experiment"})
    static final class Render extends RunDirectoryCommand {

        @Override
        public Integer call() {
            if (Files.isDirectory(dir) && RecoveredRun.applies(dir)) {
                print(spec, dir + " holds no result.json: its driver died; recovering it");
                return Recover.recover(spec, dir);
            }
            RunResult run = read(dir).result();
            Path outDir = outDir();
            FileSet files = RunReport.files(run);
            write(files, outDir);
            print(spec, "wrote " + String.join(", ", files.names()) + " to " + outDir);
            ChartFonts.missing().ifPresent(why -> print(spec, why));
            return ExitCode.OK;
        }
    }

    @Command(name = "recover", mixinStandardHelpOptions = true,
            description = {
                "Writes result.json, report.md and dashboard.html for a run whose driver died (killed, out of memory, "
                        + "its pod evicted) from what it left: started.json (written before its first operation) and "
                        + "timeline.jsonl.gz (every interval it closed, flushed as each closed).",
                "The result is marked incomplete in one line: when the driver stopped against when the run was "
                        + "planned to end. Figures only a finished run computes (service time, probes, the "
                        + "workload's metrics) are absent; the workload's ledger checks can be run after the fact "
                        + "with its 'check --ledger DIR'. 'report merge' takes the recovered result beside other "
                        + "drivers' and says it is incomplete."},
            footerHeading = "%nExamples:%n",
            footer = {
                "  ${COMMAND-FULL-NAME} results/tpcc-20261123-183750-e7315e",
                "  bench-tpcc check --ledger results/tpcc-20261123-183750-e7315e --url jdbc:postgresql://db/tpcc"})
    static final class Recover implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR", description = "The directory of the run whose driver died.")
        Path dir;

        @Override
        public Integer call() {
            if (!Files.isDirectory(dir)) {
                throw new BadInputException(dir + " is not a run directory");
            }
            if (Files.isRegularFile(dir.resolve(ResultFile.NAME))) {
                throw new BadInputException(dir + " holds a result.json: its run wrote its result; 'report render' "
                        + "re-renders it");
            }
            if (!Files.isRegularFile(dir.resolve(RecoveredRun.STARTED))) {
                throw new BadInputException(dir + " holds no " + RecoveredRun.STARTED + ": not the directory of a "
                        + "run that started (or one written before runs recorded their start)");
            }
            return recover(spec, dir);
        }

        static int recover(CommandSpec spec, Path dir) {
            RunResult run;
            try {
                run = RecoveredRun.recover(dir);
            } catch (ResultFormatException e) {
                throw new BadInputException(e.getMessage(), e);
            } catch (IOException e) {
                throw cannotWrite(dir.resolve(ResultFile.NAME), e);
            }
            write(RunReport.files(run), dir);
            if (!run.intervals().isEmpty()) {
                try {
                    Dashboard.write(run, dir);
                } catch (IOException e) {
                    throw cannotWrite(dir.resolve(Dashboard.FILE), e);
                }
            }
            print(spec, "Incomplete: " + run.parameters().get(RecoveredRun.INCOMPLETE));
            print(spec, "wrote " + ResultFile.NAME + ", " + RunReport.MARKDOWN
                    + (run.intervals().isEmpty() ? "" : ", " + Dashboard.FILE) + " to " + dir);
            return ExitCode.OK;
        }
    }

    @Command(name = "dashboard", mixinStandardHelpOptions = true,
            description = {
                "Writes dashboard.html in a run directory from its result.json: the run's timeline as interactive "
                        + "charts (throughput, p90/p95/p99 latency, failures by class, gauges) that zoom together and "
                        + "show exact values under the cursor, phases and disruptions marked on each, and tables per "
                        + "phase and per disruption. Every interval is drawn: from timeline.jsonl.gz beside "
                        + "result.json when the result names it (a long run's result keeps its intervals "
                        + "downsampled), else from result.json's own.",
                "The page is one self-contained file (charts drawn by uPlot, inlined): it opens from disk in any "
                        + "browser, with no network. Runs write it themselves; use this for results written before "
                        + "dashboards, or after upgrading Gauntlet. An existing dashboard.html is replaced at once."},
            footerHeading = "%nExamples:%n",
            footer = {
                "  ${COMMAND-FULL-NAME} results/tpcc-20261123-183750-e7315e",
                "  ${COMMAND-FULL-NAME} results/sync/off/run-2/result.json   # one run of an experiment"})
    static final class DashboardPage extends RunDirectoryCommand {

        @Override
        public Integer call() {
            RunResult run = read(dir).result();
            Path outDir = outDir();
            Path page = outDir.resolve(Dashboard.FILE);
            try {
                Dashboard.write(run, outDir);
            } catch (IOException e) {
                throw cannotWrite(page, e);
            }
            print(spec, "wrote " + page);
            return ExitCode.OK;
        }
    }

    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = {
                "Compares runs side by side and prints Markdown: | Metric | A | B | Change | 95%% CI | Winner |, then "
                        + "a verdict written from the numbers.",
                "The first side is the baseline (A); every other side gets its own table against it. Rows: "
                        + "throughput, workload metrics all runs have (tpmC, ...), mean/p50/p95/p99/max latency "
                        + "of all operations and per operation, errors, retries, checks.",
                "A side is one run, or the repeated runs of one variant: give them comma-separated (a1,a2,a3), or "
                        + "a directory whose subdirectories hold the runs (an experiment's variant directory).",
                "With two or more runs per side, each figure gets the 95%% confidence interval of the difference "
                        + "(Welch). A winner is named when the interval excludes zero and the change is at least "
                        + "--threshold percent; Equal only when the whole interval lies within +/-threshold; a "
                        + "change whose interval excludes zero but is smaller than the threshold is \"real, below\" "
                        + "it; anything else is inconclusive, with the runs per side that would decide it at the "
                        + "spread observed. With one run on a side there is no interval: every figure is inconclusive.",
                "Sides are named by their variant, else by their directory. The output warns when sides differ in "
                        + "workload, clients, parameters or machine (the seed does not count), and when an open-loop "
                        + "run could not keep its rate."},
            footerHeading = "%nExamples:%n",
            footer = {
                "  ${COMMAND-FULL-NAME} reports/queue/queue-delete reports/queue/queue-archive --out compare.md",
                "  ${COMMAND-FULL-NAME} results/sync/on results/sync/off   # each side: a variant's --repeat runs",
                "  ${COMMAND-FULL-NAME} a1,a2,a3 b1,b2,b3 --threshold 2   # three runs per side"})
    static final class Compare implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(arity = "2..*", paramLabel = "SIDE",
                description = "A run directory or result.json file; several runs of one side comma-separated; or a "
                        + "directory of run directories. The first side is the baseline.")
        List<String> inputs = new ArrayList<>();

        @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
                description = "Noise threshold in percent, the smallest change that matters: a winner needs a "
                        + "change this large, Equal needs the whole interval within +/- this (default: "
                        + "${DEFAULT-VALUE}).")
        double threshold;

        @Option(names = "--out", paramLabel = "FILE",
                description = "Also write the Markdown to FILE (replaced atomically).")
        Path out;

        @Override
        public Integer call() {
            if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                throw new BadInputException("--threshold must be a percentage >= 0, e.g. 5; got " + threshold);
            }
            if (out != null && Files.isDirectory(out)) {
                throw new BadInputException("--out " + out + " is a directory; give a file name such as compare.md");
            }
            String markdown = Comparison.compareGroups(sides(inputs), threshold).markdown();
            if (out != null) {
                try {
                    AtomicFiles.write(out, markdown.getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw cannotWrite(out, e);
                }
            }
            PrintWriter w = spec.commandLine().getOut();
            w.print(markdown);
            w.flush();
            return ExitCode.OK;
        }
    }

    @Command(name = "merge", mixinStandardHelpOptions = true,
            description = {
                "Combines the results of driver processes that ran one workload at the same time into one result, "
                        + "as if a single process had recorded every sample.",
                "Histograms are added, so every percentile is exact (percentiles are never averaged); counts, "
                        + "errors and retries are summed; throughput is the total count over the span of the measured "
                        + "windows; intervals are aligned by wall-clock time. Metrics the workload did not declare "
                        + "additive (efficiencyPercent, a cost per operation, a confidence interval) are dropped and "
                        + "listed in the parameters.",
                "Runs through faults (run --plan --worker): phases keep each operation's figures from the processes' "
                        + "histograms summed; each disruption is the one worker 0 injected and recorded, placed on the "
                        + "merged timeline, where its recovery and the unavailable seconds are judged again by the "
                        + "plan's recovery rule.",
                "Refused, with one line: results of different workloads, variants, --report-every or recovery rules; "
                        + "the same run given twice (results carry a run id); runs whose measured windows do not "
                        + "overlap (runs made one after another are compared, not merged).",
                "Writes result.json, timeline.jsonl.gz (every interval, merged from the inputs' timeline files), "
                        + "report.md, the charts and dashboard.html to --out, all or nothing."},
            footerHeading = "%nExamples:%n",
            footer = {
                "  ${COMMAND-FULL-NAME} results/driver-1 results/driver-2 --out results/merged",
                "  ${COMMAND-FULL-NAME} host1/result.json host2/result.json --out results/merged"})
    static final class Merge implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "DIR",
                description = "Run directories (or result.json files) of the driver processes.")
        List<Path> inputs = new ArrayList<>();

        @Option(names = "--out", required = true, paramLabel = "DIR",
                description = "Directory for the merged result; created if missing, files in it are replaced.")
        Path out;

        @Override
        public Integer call() {
            Path target = out.toAbsolutePath().normalize();
            java.util.Set<Path> seen = new java.util.HashSet<>();
            for (Path in : inputs) {
                Path inDir = ResultFile.locate(in).toAbsolutePath().normalize().getParent();
                if (target.equals(inDir)) {
                    throw new BadInputException("--out " + out + " is one of the inputs; merge into a new "
                            + "directory so no driver's result is overwritten");
                }
                if (!seen.add(inDir)) {
                    // A repeated input would count its samples twice and inflate throughput.
                    throw new BadInputException(in + " is given twice; each driver process must be merged once");
                }
            }
            List<RunResult> runs = new ArrayList<>();
            List<Timeline> timelines = new ArrayList<>();
            for (Path in : inputs) {
                RunResult run = read(in).result();
                runs.add(run);
                timelines.add(Timeline.of(run, ResultFile.locate(in).toAbsolutePath().normalize().getParent()));
            }
            Path timeline = stagedTimeline(target);
            RunResult merged;
            try {
                merged = ResultMerge.merge(runs, timelines, timeline);
            } catch (RuntimeException e) {
                deleteQuietly(timeline);
                throw e instanceof java.io.UncheckedIOException io ? cannotWrite(target, io.getCause()) : e;
            }
            FileSet files = new FileSet().addText(ResultFile.NAME, ResultFile.toJson(merged));
            if (merged.fullTimeline() != null) {
                files.move(TimelineFile.NAME, timeline);
            } else {
                deleteQuietly(timeline);
            }
            FileSet report = RunReport.files(merged);
            report.names().forEach(n -> files.add(n, report.content(n)));
            write(files, target);
            Path page = target.resolve(Dashboard.FILE);
            try {
                Dashboard.write(merged, target);
            } catch (IOException e) {
                throw cannotWrite(page, e);
            }
            print(spec, "merged " + runs.size() + " results (" + merged.parameters().get(ResultMerge.MERGED_FROM)
                    + " driver processes) into " + target + ": " + String.join(", ", files.names()) + ", "
                    + Dashboard.FILE);
            ChartFonts.missing().ifPresent(why -> print(spec, why));
            for (dev.gauntlet.core.result.ObjectiveOutcome o : merged.objectives()) {
                print(spec, "  " + o.line());
            }
            return merged.missedAnObjective() ? ExitCode.OBJECTIVE_MISSED : ExitCode.OK;
        }
    }

    /**
     * Where the merged timeline is written before it joins the other files: beside {@code target} (on its file
     * system, so moving it there is a rename), hidden.
     */
    private static Path stagedTimeline(Path target) {
        Path parent = target.getParent();
        try {
            Files.createDirectories(parent);
            return Files.createTempFile(parent, "." + target.getFileName() + "-timeline.", ".tmp");
        } catch (IOException e) {
            throw cannotWrite(target, e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a hidden temporary file beside the output
        }
    }

    /** Each argument is a side: one run, comma-separated runs, or a directory of run directories. */
    static List<RunGroup> sides(List<String> arguments) {
        List<RunGroup> sides = new ArrayList<>();
        for (String argument : arguments) {
            List<LabelledRun> runs = new ArrayList<>();
            for (String part : argument.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                Path path = Path.of(part.strip());
                if (Files.isDirectory(path) && !Files.exists(path.resolve(ResultFile.NAME))) {
                    List<Path> children = runDirectories(path);
                    if (children.isEmpty()) {
                        throw new BadInputException(path + " holds no result.json, and no run directory with one");
                    }
                    children.forEach(c -> runs.add(read(c)));
                } else {
                    runs.add(read(path));
                }
            }
            if (runs.isEmpty()) {
                throw new BadInputException("an empty side was given (" + argument + ")");
            }
            sides.add(RunGroup.of(runs));
        }
        // Two sides with the same variant (or directory) name get their letter, so a winner is never ambiguous.
        java.util.Map<String, Long> counts = sides.stream()
                .collect(java.util.stream.Collectors.groupingBy(RunGroup::label, java.util.stream.Collectors.counting()));
        List<RunGroup> named = new ArrayList<>();
        for (int i = 0; i < sides.size(); i++) {
            RunGroup g = sides.get(i);
            named.add(counts.get(g.label()) > 1 ? new RunGroup(g.label() + " (" + (char) ('A' + Math.min(i, 25)) + ")",
                    g.runs()) : g);
        }
        return named;
    }

    private static List<Path> runDirectories(Path dir) {
        try (java.util.stream.Stream<Path> children = Files.list(dir)) {
            return children.filter(c -> Files.isRegularFile(c.resolve(ResultFile.NAME))).sorted().toList();
        } catch (IOException e) {
            throw new BadInputException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    static LabelledRun read(Path input) {
        try {
            return LabelledRun.read(input);
        } catch (ResultFormatException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    static void write(FileSet files, Path dir) {
        try {
            files.writeInto(dir);
        } catch (IOException e) {
            throw cannotWrite(dir, e);
        }
    }

    private static BadInputException cannotWrite(Path path, IOException e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof NotDirectoryException) {
            reason = "a file is in the way where a directory is needed";
        } else if (e instanceof FileSystemException fse && fse.getReason() != null) {
            reason = fse.getReason();
        } else {
            reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
        }
        return new BadInputException("cannot write " + path + ": " + reason + "; nothing was written", e);
    }

    private static void print(CommandSpec spec, String line) {
        PrintWriter w = spec.commandLine().getOut();
        w.println(line);
        w.flush();
    }
}

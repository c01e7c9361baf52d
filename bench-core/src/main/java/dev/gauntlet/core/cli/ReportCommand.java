package dev.gauntlet.core.cli;

import dev.gauntlet.core.report.Comparison;
import dev.gauntlet.core.report.FileSet;
import dev.gauntlet.core.report.LabelledRun;
import dev.gauntlet.core.report.ResultMerge;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
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
 * {@code report render | compare | merge}: everything a user does with results after a run, from result.json
 * files alone. Inputs that are not results, and outputs that cannot be written, end in a one-line
 * {@link BadInputException}; outputs are built in memory first and written all or nothing.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        subcommands = {ReportCommand.Render.class, ReportCommand.Compare.class, ReportCommand.Merge.class},
        description = {
            "Rebuild, compare and merge reports from result.json files alone; no database is needed.",
            "Every figure is read from the HdrHistograms stored in each result, so an old run re-renders with the "
                    + "numbers it had, and merged or compared percentiles are exact, never averaged."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  ${COMMAND-FULL-NAME} render results/tpcc-20261122T100000",
            "  ${COMMAND-FULL-NAME} compare results/sync-on results/sync-off --out compare.md",
            "  ${COMMAND-FULL-NAME} merge driver-1 driver-2 driver-3 --out results/tpcc-merged"})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: choose render, compare or merge");
    }

    @Command(name = "render", mixinStandardHelpOptions = true,
            description = {
                "Re-renders report.md and its charts (throughput.png, latency.png) in a run directory from its "
                        + "result.json.",
                "Use it after upgrading Gauntlet or when the report was deleted; existing files are replaced "
                        + "all at once, never half-written."})
    static final class Render implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "DIR",
                description = "A run directory holding result.json (or the result.json file itself).")
        Path dir;

        @Override
        public Integer call() {
            RunResult run = read(dir).result();
            Path outDir = ResultFile.locate(dir).toAbsolutePath().normalize().getParent();
            FileSet files = RunReport.files(run);
            write(files, outDir);
            print(spec, "wrote " + String.join(", ", files.names()) + " to " + outDir);
            return ExitCode.OK;
        }
    }

    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = {
                "Compares runs side by side and prints Markdown: | Metric | A | B | Change | Winner |, then a "
                        + "verdict written from the numbers.",
                "The first run is the baseline (A); every other run gets its own table against it. Rows: "
                        + "throughput, workload metrics both runs have (tpmC, ...), mean/p50/p95/p99/max latency "
                        + "of all operations and per operation, errors, retries, checks.",
                "Changes smaller than --threshold percent are called Equal, because two runs of the same thing "
                        + "on a shared machine often differ by that much.",
                "Runs are named by their variant, else by their directory. The output warns when runs differ in "
                        + "workload, clients, parameters or machine, since the comparison may then not be fair."})
    static final class Compare implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(arity = "2..*", paramLabel = "RUN",
                description = "Run directories or result.json files; the first is the baseline.")
        List<Path> inputs = new ArrayList<>();

        @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
                description = "Noise threshold in percent: smaller changes are reported as Equal (default: "
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
            List<LabelledRun> runs = inputs.stream().map(ReportCommand::read).toList();
            String markdown = Comparison.compareLabelled(runs, threshold).markdown();
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
                        + "errors and retries are summed; throughput is the total count over the longest measured "
                        + "time; intervals are aligned by position. Ratio metrics such as efficiencyPercent are "
                        + "dropped (and listed in the parameters) because they do not add up.",
                "Writes result.json, report.md and the charts to --out, all or nothing."})
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
            List<RunResult> runs = inputs.stream().map(ReportCommand::read).map(LabelledRun::result).toList();
            RunResult merged = ResultMerge.merge(runs);
            FileSet files = new FileSet().addText(ResultFile.NAME, ResultFile.toJson(merged));
            FileSet report = RunReport.files(merged);
            report.names().forEach(n -> files.add(n, report.content(n)));
            write(files, target);
            print(spec, "merged " + runs.size() + " results (" + merged.parameters().get(ResultMerge.MERGED_FROM)
                    + " driver processes) into " + target + ": " + String.join(", ", files.names()));
            return ExitCode.OK;
        }
    }

    private static LabelledRun read(Path input) {
        try {
            return LabelledRun.read(input);
        } catch (ResultFormatException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    private static void write(FileSet files, Path dir) {
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

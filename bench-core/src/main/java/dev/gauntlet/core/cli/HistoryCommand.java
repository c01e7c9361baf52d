package dev.gauntlet.core.cli;

import dev.gauntlet.core.history.Change;
import dev.gauntlet.core.history.EDivisive;
import dev.gauntlet.core.history.HistoryRun;
import dev.gauntlet.core.history.ResultStore;
import dev.gauntlet.core.history.ResultStoreException;
import dev.gauntlet.core.history.RunHistory;
import dev.gauntlet.core.report.FileSet;
import dev.gauntlet.core.report.HistoryPage;
import dev.gauntlet.core.report.HistoryReport;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code report history}: every result under some directories (and in a store), grouped into series of like-for-like
 * runs, each figure's change points found by E-divisive means, written as history.md and history.html, and, with
 * {@code --fail-on-regression}, a gate for CI.
 */
@Command(name = "history", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Finds where each figure of a benchmark moved over many runs: every result.json under DIR (any depth) "
                    + "and in --store, grouped into series of like-for-like runs (same workload, variant, clients "
                    + "and parameters; the seed, labels, machine and database version do not split a series), "
                    + "ordered by start time or by --by.",
            "For each series and figure (throughput, each workload metric, p50/p95/p99 of each operation and "
                    + "observed latency, errors) change points are found with E-divisive means and a permutation "
                    + "test (seeded: the same runs give the same answer). A change point is the first run of a new "
                    + "level; it is reported with the mean before and after, the change, its p-value and whether it "
                    + "is better or worse by the figure's direction. A single odd run is not a change: a change "
                    + "needs --min-runs runs on each side.",
            "Writes history.md (change points newest first, and per series a sparkline of every figure) and "
                    + "history.html (each figure over the runs, change points marked, the run and its command under "
                    + "the cursor) into --out, and prints the change points."},
        footerHeading = "%nExit status:%n",
        footer = {
            "  0  the history was written (and, with --fail-on-regression, no recent change is worse)",
            "  1  --fail-on-regression: a worse change point lies within the last --recent runs of a series",
            "  2  bad input: no results found, an unreadable directory, a store that cannot be read",
            "",
            "Examples:",
            "  ${COMMAND-FULL-NAME} results",
            "  ${COMMAND-FULL-NAME} nightly/ --by release --out history/",
            "  ${COMMAND-FULL-NAME} --store jdbc:postgresql://db/bench?user=ci --fail-on-regression --recent 3"})
final class HistoryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "DIR",
            description = "Directories searched at any depth for result.json (or result.json files).")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--store", paramLabel = "URL",
            description = "Also read the runs kept in a store by 'run --store URL' (a PostgreSQL URL).")
    String store;

    @Option(names = "--by", paramLabel = "NAME",
            description = "Order each series by this label or parameter (versions in natural order: 25.2 before "
                    + "25.10; ties by start time) instead of by start time; it does not split series. Runs "
                    + "without it are left out, with a note.")
    String by;

    @Option(names = "--p-value", paramLabel = "P", defaultValue = "0.05",
            description = "Significance level of a change point (default: ${DEFAULT-VALUE}). On runs that did not "
                    + "change, about this share of figures shows a false change point.")
    double pValue;

    @Option(names = "--min-magnitude", paramLabel = "PCT", defaultValue = "0",
            description = "Report only changes of the mean at least this large, in percent (default: "
                    + "${DEFAULT-VALUE}, every significant change).")
    double minMagnitude;

    @Option(names = "--min-runs", paramLabel = "N", defaultValue = "3",
            description = "Runs needed on each side of a change point (default: ${DEFAULT-VALUE}, at least 2): a "
                    + "regression shows once this many runs have it.")
    int minRuns;

    @Option(names = "--permutations", paramLabel = "N", defaultValue = "999",
            description = "Permutations of the significance test (default: ${DEFAULT-VALUE}; the smallest p-value it "
                    + "can give is 1/(N+1)).")
    int permutations;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of the permutations (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--fail-on-regression",
            description = "Exit 1 when a change point in the worse direction lies within the last --recent runs of "
                    + "any series, naming each: a gate for CI.")
    boolean failOnRegression;

    @Option(names = "--recent", paramLabel = "N", defaultValue = "5",
            description = "How many of each series' newest runs --fail-on-regression looks at (default: "
                    + "${DEFAULT-VALUE}).")
    int recent;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
            description = "Where history.md and history.html are written (default: the current directory); files "
                    + "there are replaced all at once.")
    Path out;

    @Override
    public Integer call() {
        if (inputs.isEmpty() && store == null) {
            throw new BadInputException("give directories of results, --store URL, or both");
        }
        if (recent < 1) {
            throw new BadInputException("--recent must be at least 1 (got " + recent + ")");
        }
        RunHistory.Settings settings;
        try {
            settings = new RunHistory.Settings(by, new EDivisive.Options(pValue, permutations, minRuns, seed),
                    minMagnitude);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        if (Files.isRegularFile(out)) {
            throw new BadInputException("--out " + out + " is a file; give a directory for history.md and history.html");
        }
        List<String> skipped = new ArrayList<>();
        List<HistoryRun> runs = new ArrayList<>();
        for (Path input : inputs) {
            runs.addAll(fromDirectory(input, skipped));
        }
        if (store != null) {
            runs.addAll(fromStore(store));
        }
        if (runs.isEmpty()) {
            throw new BadInputException("no results found in " + String.join(", ", inputs.stream().map(Path::toString)
                    .toList()) + (store == null ? "" : (inputs.isEmpty() ? "" : " or ") + "the store"));
        }
        RunHistory history = RunHistory.of(runs, settings);
        FileSet files = new FileSet().addText(HistoryReport.MARKDOWN, HistoryReport.markdown(history))
                .addText(HistoryPage.FILE, HistoryPage.html(history));
        ReportCommand.write(files, out);
        PrintWriter w = spec.commandLine().getOut();
        skipped.forEach(s -> w.println("skipped " + s));
        history.notes().forEach(n -> w.println("note: " + n));
        w.printf(Locale.ROOT, "%d runs in %d series; %d change point(s)%n", history.runCount(),
                history.series().size(), history.changes().size());
        for (Change c : history.changes()) {
            w.println("  " + HistoryReport.line(c));
        }
        w.println("wrote " + out.resolve(HistoryReport.MARKDOWN) + ", " + out.resolve(HistoryPage.FILE));
        w.flush();
        if (failOnRegression) {
            List<Change> regressions = history.regressions(recent);
            PrintWriter err = spec.commandLine().getErr();
            for (Change c : regressions) {
                err.println("regression: " + HistoryReport.line(c));
            }
            err.flush();
            if (!regressions.isEmpty()) {
                return ExitCode.FAILED;
            }
            w.println("no worse change point in the last " + recent + " runs of any series");
            w.flush();
        }
        return ExitCode.OK;
    }

    private static List<HistoryRun> fromDirectory(Path input, List<String> skipped) {
        if (!Files.exists(input)) {
            throw new BadInputException(input + ": no such file or directory");
        }
        if (Files.isRegularFile(input)) {
            return List.of(new HistoryRun(ReportCommand.read(input).result(), input.toString()));
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(input, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
            files = walk.filter(p -> p.getFileName().toString().equals(ResultFile.NAME) && Files.isRegularFile(p))
                    .sorted().toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new BadInputException("cannot search " + input + ": " + e.getMessage(), e);
        }
        List<HistoryRun> runs = new ArrayList<>();
        for (Path file : files) {
            try {
                runs.add(new HistoryRun(ResultFile.read(file), file.getParent().toString()));
            } catch (ResultFormatException e) {
                // One unreadable file (a run killed while writing, a foreign JSON) does not hide the rest.
                skipped.add(e.getMessage());
            }
        }
        return runs;
    }

    private static List<HistoryRun> fromStore(String url) {
        try (ResultStore s = ResultStore.open(url)) {
            return s.runs().stream().map(r -> new HistoryRun(r, "store run " + r.runId())).toList();
        } catch (ResultStoreException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }
}

package dev.gauntlet.core.search;

import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs a {@link RunSearch}: its steps one after another, each in {@code step-NN-<label>/}, then its summary. */
public final class SearchRun {

    /** Runs one step of a search into its directory: the workload's own run, with its preparation. */
    @FunctionalInterface
    public interface Steps {
        RunResult run(RunSearch.Step step, Path dir);
    }

    private SearchRun() {
    }

    /**
     * Runs {@code search} from {@code base} until it is done, writes {@value RunSearch#SUMMARY} and its files into
     * {@code outDir}, prints the summary, and returns the search's exit status.
     */
    public static <P> int run(RunSearch<P> search, P prepared, RunPlan base, Path outDir, PrintStream out, Steps steps) {
        List<RunResult> done = new ArrayList<>();
        for (RunSearch.Step step = search.next(prepared, base, done); step != null;
             step = search.next(prepared, base, done)) {
            String dir = String.format(Locale.ROOT, "step-%02d-%s", done.size() + 1, step.label());
            out.printf(Locale.ROOT, "%n== step %d: %s ==%n", done.size() + 1, step.label());
            done.add(steps.run(step, outDir.resolve(dir)));
            search.afterStep(done).ifPresent(line -> out.printf(Locale.ROOT, "step %d: %s%n", done.size(), line));
        }
        String summary = search.summary(done);
        try {
            AtomicFiles.writeString(outDir.resolve(RunSearch.SUMMARY), summary);
            for (Map.Entry<String, byte[]> f : search.files(done).entrySet()) {
                AtomicFiles.write(outDir.resolve(f.getKey()), f.getValue());
            }
        } catch (IOException e) {
            throw new RunFailedException("cannot write the search's summary in " + outDir + ": " + e.getMessage(), e);
        }
        out.println();
        out.print(summary);
        out.println("Search: " + outDir.resolve(RunSearch.SUMMARY));
        return search.exitCode(done);
    }
}

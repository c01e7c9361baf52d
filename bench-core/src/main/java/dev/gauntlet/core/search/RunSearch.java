package dev.gauntlet.core.search;

import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs chosen one after another from the results so far: a search for the highest rate a system sustains steps the
 * rate up until a run fails its criterion. Each step is a full run with its own result and report
 * ({@code step-01-<label>/}); the search writes its own summary ({@value #SUMMARY}) beside them. {@link SearchRun}
 * runs one.
 *
 * @param <P> what the benchmark prepared once (the search may record in it what the next run needs)
 */
public interface RunSearch<P> {

    /** The summary file in the search's output directory. */
    String SUMMARY = "search.md";

    /** One run of the search: a label for its directory and variant, and its plan. */
    record Step(String label, RunPlan plan) {
    }

    /** The next run, from the base plan and the results of the runs so far (in order); null when the search is done. */
    Step next(P prepared, RunPlan base, List<RunResult> done);

    /** The search's conclusion as Markdown, from every run it made: written to {@value #SUMMARY} and printed. */
    String summary(List<RunResult> done);

    /** A line on the step just run (the last of {@code done}), printed after its own summary; empty for none. */
    default Optional<String> afterStep(List<RunResult> done) {
        return Optional.empty();
    }

    /** Files written beside {@value #SUMMARY} (charts, a page), by name; none by default. */
    default Map<String, byte[]> files(List<RunResult> done) {
        return Map.of();
    }

    /** The search's exit status: {@link ExitCode#FAILED} when a check of any step failed. */
    default int exitCode(List<RunResult> done) {
        return done.stream().anyMatch(r -> r.checkStatus() == Check.Status.FAIL) ? ExitCode.FAILED : ExitCode.OK;
    }
}

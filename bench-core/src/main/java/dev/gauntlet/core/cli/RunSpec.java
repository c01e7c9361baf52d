package dev.gauntlet.core.cli;

import dev.gauntlet.core.run.ProgressPrinter;
import dev.gauntlet.core.run.RunListener;
import java.io.PrintStream;
import java.util.function.Function;

import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.Target;
import dev.gauntlet.core.run.Workload;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One run as {@link Benchmark#run} takes it: what to run ({@code plan}, {@code workload}, {@code target}) and the
 * rest, each with a default, set by name:
 *
 * <pre>{@code
 * RunSpec.of(plan, workload, target).out(dir).parameters(Map.of("rows", rows)).finish(r -> r.withChecks(...))
 * }</pre>
 *
 * @param variant     the name of this run in comparisons (an experiment cell's label), or null
 * @param parameters  workload parameters recorded in the result, after the plan's own
 * @param environment what ran it (database version, machine); null: the machine only
 * @param outDir      where {@code result.json}, {@code report.md}, charts and the interval log go; null:
 *                    {@code results/<workload>-<timestamp>-<id>}
 * @param finish      finishing work on the measured result (metrics, checks), given the run's every reporting interval
 *                    too (the result may keep them downsampled); the result is on disk before this starts
 * @param probes      phase probes (a server-side count read at every phase boundary, besides driver CPU) and gauge
 *                    probes (server figures sampled every interval)
 * @param progress    what is printed while the run goes, given the console (default: {@link ProgressPrinter}, the
 *                    cockroach {@code workload} lines)
 */
public record RunSpec<S>(RunPlan plan, Workload<S> workload, Target<S> target, String variant,
                         Map<String, Object> parameters, Environment environment, Path outDir,
                         Finish finish, List<Probe> probes,
                         Function<PrintStream, RunListener> progress) {

    public RunSpec {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(target, "target");
        parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        probes = List.copyOf(probes);
        Objects.requireNonNull(finish, "finish");
        Objects.requireNonNull(progress, "progress");
    }

    /**
     * Finishing work on a measured result: metrics and checks added, recovery judged. {@code timeline} is every
     * reporting interval of the run, read from its file one at a time (a long run's result keeps them downsampled).
     */
    @FunctionalInterface
    public interface Finish {
        RunResult apply(RunResult measured, Timeline timeline);
    }

    /** A run with no variant, parameters, finishing work or probes, writing to the default output directory. */
    public static <S> RunSpec<S> of(RunPlan plan, Workload<S> workload, Target<S> target) {
        return new RunSpec<>(plan, workload, target, null, Map.of(), null, null, (r, t) -> r, List.of(),
                ProgressPrinter::new);
    }

    public RunSpec<S> variant(String name) {
        return new RunSpec<>(plan, workload, target, name, parameters, environment, outDir, finish, probes, progress);
    }

    /** Adds parameters (later ones win). */
    public RunSpec<S> parameters(Map<String, ?> more) {
        Map<String, Object> p = new LinkedHashMap<>(parameters);
        p.putAll(more);
        return new RunSpec<>(plan, workload, target, variant, p, environment, outDir, finish, probes, progress);
    }

    public RunSpec<S> environment(Environment env) {
        return new RunSpec<>(plan, workload, target, variant, parameters, env, outDir, finish, probes, progress);
    }

    public RunSpec<S> out(Path dir) {
        return new RunSpec<>(plan, workload, target, variant, parameters, environment, dir, finish, probes, progress);
    }

    /** Finishing work that needs the measured result alone. */
    public RunSpec<S> finish(UnaryOperator<RunResult> work) {
        Objects.requireNonNull(work, "finish");
        return finish((measured, timeline) -> work.apply(measured));
    }

    /** Finishing work that reads the run's every reporting interval too (recovery judged second by second). */
    public RunSpec<S> finish(Finish work) {
        return new RunSpec<>(plan, workload, target, variant, parameters, environment, outDir, work, probes, progress);
    }

    /** What to print while the run goes (given the console), instead of the cockroach {@code workload} lines. */
    public RunSpec<S> progress(Function<PrintStream, RunListener> listener) {
        return new RunSpec<>(plan, workload, target, variant, parameters, environment, outDir, finish, probes, listener);
    }

    /** Adds phase probes (read at every phase boundary) and gauge probes (sampled every interval). */
    public RunSpec<S> probes(List<? extends Probe> more) {
        List<Probe> p = new ArrayList<>(probes);
        p.addAll(more);
        return new RunSpec<>(plan, workload, target, variant, parameters, environment, outDir, finish, p, progress);
    }
}

package dev.gauntlet.core.cli;

import dev.gauntlet.core.history.ResultStore;
import dev.gauntlet.core.history.ResultStoreException;
import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.report.Dashboard;
import dev.gauntlet.core.report.ChartFonts;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.FullTimeline;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.TimelineFile;
import dev.gauntlet.core.run.DriverCpu;
import dev.gauntlet.core.run.PhaseProbe;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * One benchmark run from the command line's point of view: announce it, run it with a live progress line,
 * survive Ctrl-C, and leave {@code result.json}, {@code report.md}, charts, {@code dashboard.html} (runs with
 * reporting intervals), the full timeline ({@code timeline.jsonl.gz}, every interval written as it closes) and the
 * interval log in the output directory. Every workload's {@code run} command ends here.
 */
public final class Benchmark {

    private final String tool;
    private final String workload;
    private final List<String> args;
    private final PrintStream out;
    /** Whether a program's default job runs it, with the program's own arguments. */
    private boolean defaultJob;
    private ResultOptions keeping = new ResultOptions();
    /** The objectives each run is judged by ({@code --slo}). */
    private List<Objective> objectives = List.of();

    /**
     * @param tool     the program, e.g. {@code bench-tpcc}
     * @param workload the workload's short name, e.g. {@code tpcc}
     * @param args     the command line as typed (secrets are redacted before it is stored)
     */
    public Benchmark(String tool, String workload, List<String> args, PrintStream out) {
        this.tool = tool;
        this.workload = workload;
        this.args = List.copyOf(args);
        this.out = out;
    }

    /**
     * The benchmark of a picocli command: the program is the command's root ({@code bench-tpcc}); the command line
     * stored in results is the command's full name and its arguments as typed ({@code bench-tpcc run --clients 8}),
     * whether the user typed the subcommand or a default job ran it.
     */
    public static Benchmark of(picocli.CommandLine.Model.CommandSpec command, String workload, PrintStream out) {
        String[] names = command.qualifiedName(" ").split(" ");
        List<String> path = List.of(names).subList(1, names.length);
        List<String> typed = command.commandLine().getParseResult().originalArgs();
        // Parsed from the top, the arguments start with the subcommand's name; run directly (a default job), not.
        List<String> args = new java.util.ArrayList<>(typed.size() >= path.size()
                && typed.subList(0, path.size()).equals(path) ? List.of() : path);
        boolean direct = !args.isEmpty();
        args.addAll(typed);
        Benchmark b = new Benchmark(command.root().name(), workload, args, out);
        b.defaultJob = direct && command.parent() != null
                && command.parent().userObject() instanceof WorkloadCommand w && w.defaultJob().equals(typed);
        return b;
    }

    /**
     * Whether the user gave {@code --prime} (not left to its default, nor set by a default job's own arguments:
     * {@code --prime auto:45s} is the program's choice, its outcome judged as the default's).
     */
    private boolean primeGiven() {
        return !defaultJob && args.stream().anyMatch(a -> a.equals("--prime") || a.startsWith("--prime="));
    }

    /** Labels the result ({@code --label}) and keeps it in a store besides its directory ({@code --store}). */
    public Benchmark keeping(ResultOptions results) {
        this.keeping = results;
        return this;
    }

    /**
     * Judges each run by these objectives ({@code --slo}), whose names the caller checked against the workload's
     * ({@link Objective#checkNames}) before preparing the run.
     */
    public Benchmark judging(List<Objective> these) {
        this.objectives = List.copyOf(these);
        return this;
    }

    public String commandLine() {
        return tool + " " + Redaction.arguments(args).stream()
                .map(a -> a.isEmpty() || a.matches(".*[\\s'\"$&;|<>*?].*") ? "'" + a.replace("'", "'\\''") + "'" : a)
                .collect(Collectors.joining(" "));
    }

    public <S> RunResult run(RunSpec<S> spec) {
        RunPlan plan = spec.plan();
        Path outDir = spec.outDir() != null ? spec.outDir() : OutputDirectory.defaultFor(workload, null);
        java.util.Map<String, String> labels = keeping.labels();
        // The store is opened (its table made) before the run, so a wrong URL costs seconds, not the run.
        ResultStore store = openStore();
        Path dir = OutputDirectory.create(outDir);
        announce(spec, outDir);
        CountDownLatch written = new CountDownLatch(1);
        AtomicReference<Runner<S>> runner = new AtomicReference<>();
        Thread onInterrupt = new Thread(() -> {
            Runner<S> r = runner.get();
            if (r != null) {
                r.requestStop("interrupted");
            }
            try {
                // Let the run write what it measured, and finish its checks, before the JVM goes.
                written.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gauntlet-interrupt");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try (IntervalLog log = new IntervalLog(dir.resolve(IntervalLog.FILE_NAME), System.currentTimeMillis(),
                tool + " " + workload + (spec.variant() == null ? "" : " variant " + spec.variant()));
             TimelineFile.Writer timeline = TimelineFile.create(dir.resolve(TimelineFile.NAME))) {
            // Who, where, what and the phases planned, before the first operation: with the timeline, what
            // 'report recover' needs should the driver die before it writes its result.
            RunResult planned = planned(spec, labels);
            ResultFile.write(planned, dir.resolve(RecoveredRun.STARTED));
            RunListener listener = RunListener.both(spec.progress().apply(out), writingTo(timeline));
            runner.set(new Runner<>(plan, spec.workload(), spec.target(), listener, log, spec.probes()));
            RunRecord record = runner.get().run();
            timeline.close();
            // What was measured is on disk before any finishing work (checks can take minutes, or fail).
            RunResult measured = toResult(planned, spec, record).toBuilder()
                    .fullTimeline(new FullTimeline(TimelineFile.NAME, timeline.count())).build();
            ResultFile.write(measured, dir.resolve(ResultFile.NAME));
            java.nio.file.Files.deleteIfExists(dir.resolve(RecoveredRun.STARTED));
            RunResult finished = spec.finish().apply(measured, Timeline.of(measured, dir));
            RunResult result = finished.toBuilder().objectives(objectives.stream().map(o -> o.judge(finished)).toList())
                    .build();
            ResultFile.write(result, dir.resolve(ResultFile.NAME));
            RunReport.write(result, dir);
            boolean dashboard = !result.intervals().isEmpty();
            if (dashboard) {
                Dashboard.write(result, dir);
            }
            out.println();
            out.print(Summary.of(result, primeGiven()));
            if (record.unfinishedOperations() > 0) {
                out.println("warning: " + record.unfinishedOperations()
                        + " worker(s) were still inside an operation when the run ended; their operations are not counted");
            }
            out.println("Result: " + dir.resolve(ResultFile.NAME));
            out.println("Report: " + dir.resolve(RunReport.MARKDOWN));
            ChartFonts.missing().ifPresent(out::println);
            if (dashboard) {
                out.println("Dashboard: " + dir.resolve(Dashboard.FILE));
            }
            if ("interrupted".equals(record.stopReason())) {
                out.println("Interrupted: results cover what ran until Ctrl-C.");
            }
            if (store != null) {
                try {
                    store.save(result);
                    out.println("Stored: run " + result.runId() + " in " + store.describe());
                } catch (ResultStoreException e) {
                    throw new RunFailedException(e.getMessage() + " (the result is in " + dir + "; 'report history' "
                            + "reads it from there)", e);
                }
            }
            if (record.failed()) {
                throw new RunFailedException("the run stopped on an error it cannot continue past: "
                        + record.fatalError());
            }
            return result;
        } catch (IOException e) {
            throw new RunFailedException("cannot write results to " + dir + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted", e);
        } finally {
            if (store != null) {
                store.close();
            }
            written.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException alreadyShuttingDown) {
                // Ctrl-C: the hook is running and now sees the results written.
            }
        }
    }

    /** Each interval into the timeline file as it closes, so the run keeps none of them in memory for it. */
    private static RunListener writingTo(TimelineFile.Writer timeline) {
        return new RunListener() {
            @Override
            public void onInterval(dev.gauntlet.core.result.Interval interval, Map<String, Long> cumulativeCounts,
                                   double phaseSeconds) {
                timeline.append(interval);
            }

            @Override
            public void onPhaseEnd(Phase phase) {
            }
        };
    }

    private ResultStore openStore() {
        if (keeping.store() == null) {
            return null;
        }
        try {
            return ResultStore.open(keeping.store());
        } catch (ResultStoreException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    private void announce(RunSpec<?> spec, Path outDir) {
        RunPlan p = spec.plan();
        StringBuilder b = new StringBuilder("Running ").append(workload);
        if (spec.variant() != null) {
            b.append(" [").append(spec.variant()).append(']');
        }
        b.append(": ");
        if (p.roles().size() == 1) {
            b.append(p.clients()).append(p.clients() == 1 ? " client, " : " clients, ");
            b.append(p.openLoop() ? String.format(Locale.ROOT, "open loop at %.1f ops/s, ", p.rate()) : "closed loop, ");
        } else {
            for (dev.gauntlet.core.run.Role r : p.roles()) {
                b.append(r.name()).append(' ').append(r.clients()).append(r.openLoop()
                        ? String.format(Locale.ROOT, " at %.1f ops/s, ", r.rate()) : " closed loop, ");
            }
        }
        b.append(p.duration() != null ? DurationConverter.format(p.duration()) : p.iterations() + " operations per client");
        if (p.threads().resolve(p.clients()) == dev.gauntlet.core.run.ThreadKind.VIRTUAL) {
            b.append(", on virtual threads");
        }
        if (!p.warmup().isZero()) {
            b.append(" after ").append(DurationConverter.format(p.warmup())).append(" warm-up");
        }
        if (!p.ramp().isZero()) {
            b.append(", ramp ").append(DurationConverter.format(p.ramp()));
        }
        if (!p.prime().isZero()) {
            b.append(", primed first (not measured) ").append(primeText(p));
        }
        b.append(", seed ").append(p.seed());
        out.println(b);
        // What a cold start costs before the first operation: the JVM, Gauntlet, and (embedded) the database and load.
        long sinceJvm = System.currentTimeMillis() - java.lang.management.ManagementFactory.getRuntimeMXBean()
                .getStartTime();
        out.printf(Locale.ROOT, "Output: %s  (Ctrl-C stops early and still writes the result); %.1f s since the JVM "
                + "started%n", outDir, sinceJvm / 1000.0);
    }

    /** The priming as planned: its length, or what ends it (the condition says itself) and its limit. */
    private static String primeText(RunPlan p) {
        String limit = DurationConverter.format(p.prime());
        return p.primeUntil() == null ? limit : "until " + p.primeUntil() + ", at most " + limit;
    }

    /**
     * Seconds from the JVM's start to the run's first operation (its start, priming included): the cold start a user
     * waits through. Recorded for the first run of a JVM only.
     */
    public static final String JVM_START_TO_FIRST_OPERATION = "jvmStartToFirstOperationSeconds";
    private static final java.util.concurrent.atomic.AtomicBoolean COLD_START_RECORDED =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The result as far as it is known before the run: who, where, what, the parameters planned and the phases planned
     * (from 0 s, each as long as planned), no figures.
     */
    private <S> RunResult planned(RunSpec<S> spec, Map<String, String> labels) {
        RunPlan p = spec.plan();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("clients", p.clients());
        if (p.roles().size() > 1) {
            parameters.put("roles", p.roles().stream().map(r -> r.name() + " " + r.clients()
                    + (r.openLoop() ? " at " + r.rate() + " ops/s" : " closed loop")).collect(Collectors.joining("; ")));
        }
        parameters.put("workers", p.workers());
        parameters.put("threads", p.threads().resolve(p.clients()).label());
        parameters.put("loop", p.openLoop() ? "open" : "closed");
        if (p.openLoop()) {
            parameters.put("rate", p.rate());
        }
        if (p.duration() != null) {
            parameters.put("duration", DurationConverter.format(p.duration()));
        } else {
            parameters.put("iterations", p.iterations());
        }
        parameters.put("warmup", DurationConverter.format(p.warmup()));
        if (!p.prime().isZero()) {
            parameters.put("prime", primeText(p));
        }
        parameters.put("ramp", DurationConverter.format(p.ramp()));
        parameters.put("reportEvery", DurationConverter.format(p.reportEvery()));
        parameters.put("maxAttempts", p.maxAttempts());
        parameters.put("seed", p.seed());
        parameters.putAll(spec.parameters());
        List<Phase> phases = new java.util.ArrayList<>();
        double at = 0;
        for (dev.gauntlet.core.run.PhasePlan ph : p.timeline()) {
            double end = at + (ph.length() == null ? 0 : ph.length().toNanos() / 1e9);
            phases.add(new Phase(ph.name(), at, end, Map.of(), ph.measured(), Map.of()));
            at = end;
        }
        return RunResult.builder()
                .runId(RunResult.newRunId())
                .tool(Provenance.tool(tool))
                .workload(workload)
                .variant(spec.variant())
                .command(commandLine())
                .labels(labels)
                .startedAt(java.time.Instant.now().toString())
                .clients(p.clients())
                .environment(spec.environment())
                .parameters(parameters)
                .phases(phases)
                .build();
    }

    private <S> RunResult toResult(RunResult planned, RunSpec<S> spec, RunRecord record) {
        RunPlan p = spec.plan();
        // The planned parameters, in their order, with what the run decided: the priming's outcome, why it stopped.
        Map<String, Object> parameters = new LinkedHashMap<>();
        planned.parameters().forEach((name, value) -> {
            parameters.put(name, value);
            if (name.equals("prime") && p.primeUntil() != null) {
                record.phases().stream().filter(ph -> Phase.PRIME.equals(ph.name())).findFirst().ifPresent(ph ->
                        new PrimeOutcome(p.primeUntil(), p.prime(), ph.endSeconds() - ph.startSeconds())
                                .record(parameters));
            }
            if (name.equals("seed")) {
                parameters.put("stopReason", record.stopReason());
                if (record.fatalError() != null) {
                    parameters.put("fatalError", record.fatalError());
                }
            }
        });
        Metrics metrics = new Metrics();
        // Per completed operation, as workloads count theirs (tpmC counts committed New-Orders): so the costs of
        // concurrent driver processes merge exactly (MetricInfo.Merge.PER_OPERATION).
        long operations = record.operations().stream().mapToLong(o -> o.count()).sum();
        Phase measured = record.phases().stream().filter(ph -> Phase.MEASURE.equals(ph.name())).findFirst()
                .orElse(null);
        if (measured != null && operations > 0) {
            List<Probe> probes = new java.util.ArrayList<>(List.of(new DriverCpu()));
            probes.addAll(spec.probes());
            for (Probe probe : probes) {
                if (probe instanceof PhaseProbe phaseProbe && phaseProbe.perOperation() != null) {
                    PhaseProbe.PerOperation m = phaseProbe.perOperation();
                    java.util.Optional.ofNullable(measured.probe(probe.name())).ifPresent(rise ->
                            metrics.add(m.metric(), rise / m.unit() / operations, m.info()));
                }
            }
        }
        if (record.mostScheduleLagNanos() >= 0) {
            // Open loop: how far the driver fell behind its schedule at worst (what --slo 'lag <= 100ms' judges).
            metrics.add(dev.gauntlet.core.objective.Objective.SCHEDULE_LAG, record.mostScheduleLagNanos() / 1e6,
                    new MetricInfo(MetricInfo.Better.LOWER, MetricInfo.Merge.MAX));
        }
        if (COLD_START_RECORDED.compareAndSet(false, true)) {
            // The first run of this JVM: what a cold start cost before its first operation (the JVM, Gauntlet,
            // the database's start and load when it starts one); later runs of the JVM (an experiment's cells) are
            // not cold, so they do not say it.
            long jvmStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
            metrics.add(JVM_START_TO_FIRST_OPERATION, Math.max(0, record.startedAt().toEpochMilli() - jvmStart) / 1000.0,
                    new MetricInfo(MetricInfo.Better.NEITHER, MetricInfo.Merge.NONE));
        }
        return planned.toBuilder()
                .startedAt(record.startedAt().toString())
                .endedAt(record.endedAt().toString())
                .measuredSeconds(record.measuredSeconds())
                .clients(p.clients())
                .environment(spec.environment())
                .parameters(parameters)
                .operations(record.operations())
                .metrics(metrics)
                .intervals(record.intervals())
                .phases(record.phases())
                .errors(record.errors())
                .observations(record.observations())
                .gauges(record.gauges())
                .roles(record.roles())
                .disruptions(record.disruptions())
                .build();
    }
}

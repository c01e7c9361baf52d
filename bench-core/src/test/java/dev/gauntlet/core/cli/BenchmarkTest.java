package dev.gauntlet.core.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.result.FullTimeline;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.TimelineFile;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run leaves on disk, whatever happens after the measuring ends. */
class BenchmarkTest {

    @TempDir
    Path tmp;

    private static Workload<Integer> sleeper() {
        return Workload.repeating(Operation.of("op", s -> Thread.sleep(1)));
    }

    private RunSpec<Integer> spec(Path out, java.util.function.UnaryOperator<RunResult> finisher) {
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(600)).withWarmup(Duration.ofMillis(300))
                .withReportEvery(Duration.ofMillis(200));
        return RunSpec.of(plan, sleeper(), SyntheticTarget.direct()).out(out).finish(finisher);
    }

    @Test
    void theMeasuredResultIsOnDiskBeforeFinishingWorkThatFails() {
        Path out = tmp.resolve("run");
        Benchmark b = new Benchmark("bench-test", "test", List.of("run"),
                new PrintStream(new ByteArrayOutputStream()));
        // Consistency checks that die (or a Ctrl-C during them) must not lose what was measured.
        assertThrows(IllegalStateException.class, () -> b.run(spec(out, r -> {
            throw new IllegalStateException("checks lost their connection");
        })));
        RunResult r = ResultFile.read(out);
        assertTrue(r.operation("op").orElseThrow().count() > 0, "the measured figures were written");
        assertTrue(r.runId() != null && !r.runId().isBlank(), "every result has a run id");
        assertTrue(r.metrics().get("driverCpuPerOperationMs") > 0, "every result says what an operation cost the driver");
        assertEquals(dev.gauntlet.core.result.MetricInfo.Better.LOWER,
                r.metricInfo("driverCpuPerOperationMs").better());
    }

    @Test
    void onlyTheFirstRunOfAJvmSaysHowLongItsColdStartTook() throws Exception {
        Benchmark b = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()));
        b.run(spec(tmp.resolve("a"), r -> r));
        b.run(spec(tmp.resolve("b"), r -> r));
        RunResult first = ResultFile.read(tmp.resolve("a"));
        RunResult second = ResultFile.read(tmp.resolve("b"));
        assertTrue(!second.metrics().containsKey(Benchmark.JVM_START_TO_FIRST_OPERATION),
                "a later run of the same JVM is not a cold start: " + second.metrics());
        Double cold = first.metrics().get(Benchmark.JVM_START_TO_FIRST_OPERATION);
        if (cold != null) { // absent when an earlier test of this JVM ran first
            long jvmStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
            double expected = (java.time.Instant.parse(first.startedAt()).toEpochMilli() - jvmStart) / 1000.0;
            assertEquals(expected, cold, 0.002, "from the JVM's start to the run's start");
            assertEquals(dev.gauntlet.core.result.MetricInfo.Better.NEITHER,
                    first.metricInfo(Benchmark.JVM_START_TO_FIRST_OPERATION).better());
        }
    }

    /** A priming that waits for a condition says how it ended, and the summary warns when its limit ended it. */
    @Test
    void aPrimingItsLimitEndedIsRecordedAndTheSummarySaysSo() throws Exception {
        dev.gauntlet.core.run.Condition never = new dev.gauntlet.core.run.Condition() {
            @Override
            public boolean holds(Duration inPhase) {
                return false;
            }

            @Override
            public String toString() {
                return "the never";
            }
        };
        dev.gauntlet.core.run.Condition soon = inPhase -> inPhase.toMillis() >= 200;
        for (boolean settles : new boolean[] {false, true}) {
            Path out = tmp.resolve("primed-" + settles);
            RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(400)).toBuilder()
                    .prime(Duration.ofMillis(1500), settles ? soon : never).build();
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            // --prime given: its outcome is the user's to hear of, whatever the measured run's compiling.
            RunResult r = new Benchmark("bench-test", "test", List.of("run", "--prime", "auto"),
                    new PrintStream(printed, true)).run(RunSpec.of(plan, sleeper(), SyntheticTarget.direct()).out(out));
            String summary = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(settles, r.parameters().get(PrimeOutcome.SETTLED), r.parameters().toString());
            if (settles) {
                assertTrue(String.valueOf(r.parameters().get(PrimeOutcome.ENDED)).startsWith("after "),
                        r.parameters().toString());
                assertTrue(!summary.contains("warning: the priming"), summary);
            } else {
                assertEquals("at its limit, 1500ms, before the never", r.parameters().get(PrimeOutcome.ENDED));
                assertTrue(summary.contains("warning: the priming ended at its limit, 1500ms, before the never: "),
                        summary);
            }
        }
    }

    /** A deliberately slow operation misses its objective: the verdict everywhere a user reads it, and exit 4. */
    @Test
    void aRunThatMissesAnObjectiveSaysSoEverywhereAndExitsFour() throws Exception {
        Path out = tmp.resolve("slo");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        // Each operation sleeps 1 ms: no p99 of 0.5 ms; a p50 of 10 s is met.
        RunResult r = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(printed, true))
                .judging(dev.gauntlet.core.objective.Objective.parseAll(List.of("p50 <= 10s", "p99(op) <= 0.5ms")))
                .run(spec(out, x -> x));
        assertEquals(List.of(true, false), r.objectives().stream().map(o -> o.met()).toList());
        assertTrue(r.objectives().get(1).measured() >= 1.0, "the sleep is in it: " + r.objectives().get(1).value());
        assertEquals(ExitCode.OBJECTIVE_MISSED, ExitCode.of(r));
        String summary = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(summary.contains("\nObjectives: MISSED\n  MET    p50 <= 10s: "), summary);
        assertTrue(summary.contains("\n  MISSED p99(op) <= 0.5ms: "), summary);
        assertEquals(r.objectives(), ResultFile.read(out).objectives(), "result.json holds them");
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Objectives\n\n| Objective "), report);
        assertTrue(report.matches("(?s).*\\| `p99\\(op\\) <= 0\\.5ms` \\| [0-9,]+\\.\\d+ ms \\| MISSED +\\|.*"), report);
        String dashboard = Files.readString(out.resolve(dev.gauntlet.core.report.Dashboard.FILE));
        assertTrue(dashboard.contains("<li>MISSED p99(op) &lt;= 0.5ms: "), "the dashboard lists them");
        // Met: exit 0; and a failed check outranks a missed objective.
        RunResult met = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .judging(dev.gauntlet.core.objective.Objective.parseAll(List.of("p99 <= 10s", "ops/s > 0")))
                .run(spec(tmp.resolve("met"), x -> x));
        assertEquals(ExitCode.OK, ExitCode.of(met));
        // One driver's part of a run (--worker 0/2): its verdict is for the record, report merge sets the status.
        java.util.Map<String, Object> part = new java.util.LinkedHashMap<>(r.parameters());
        part.put(dev.gauntlet.core.result.WorkerShare.PARAMETER, "0/2");
        assertEquals(ExitCode.OK, ExitCode.of(r.toBuilder().parameters(part).build()));
        assertEquals(ExitCode.FAILED, ExitCode.of(r.toBuilder().checks(List.of(
                dev.gauntlet.core.result.Check.fail("balance", "off by one"))).build()));
    }

    @Test
    void theIntervalLogMarksTheEndOfTheWarmup() throws Exception {
        Path out = tmp.resolve("run");
        new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .run(spec(out, r -> r));
        List<String> lines = Files.readAllLines(out.resolve(IntervalLog.FILE_NAME));
        int mark = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("#warm-up ended at")) {
                mark = i;
            }
        }
        assertTrue(mark > 0, "a comment line marks the warm-up's end: " + lines);
        assertTrue(lines.subList(mark + 1, lines.size()).stream().anyMatch(l -> !l.startsWith("#")),
                "measured intervals follow the mark");
    }

    @Test
    void aRunLeavesItsDashboardBesideTheReportAndSaysWhere() throws Exception {
        Path out = tmp.resolve("run");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RunResult r = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(printed, true))
                .run(spec(out, x -> x));
        Path dashboard = out.resolve(dev.gauntlet.core.report.Dashboard.FILE);
        assertEquals(dev.gauntlet.core.report.Dashboard.html(r), Files.readString(dashboard));
        String lines = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(lines.contains("\nReport: " + out.resolve("report.md") + "\nDashboard: " + dashboard + "\n"), lines);
    }

    /**
     * Every interval goes to the timeline file as it closes; the result names it, finishing work reads it, and the
     * dashboard is drawn from it.
     */
    @Test
    void everyIntervalIsInTheTimelineFileTheResultNamesAndFinishingWorkReads() throws Exception {
        Path out = tmp.resolve("run");
        RunPlan plan = RunPlan.closedLoop(2, Duration.ofMillis(600)).withWarmup(Duration.ofMillis(300))
                .withReportEvery(Duration.ofMillis(200));
        List<Long> heard = new java.util.ArrayList<>();
        RunResult r = new Benchmark("bench-test", "test", List.of("run"), new PrintStream(new ByteArrayOutputStream()))
                .run(RunSpec.of(plan, sleeper(), SyntheticTarget.direct()).out(out).finish((measured, timeline) -> {
                    heard.add(timeline.size());
                    return measured;
                }));
        assertEquals(new FullTimeline(TimelineFile.NAME, r.intervals().size()), r.fullTimeline());
        assertEquals(List.of((long) r.intervals().size()), heard, "finishing work is given every interval");
        List<Interval> written = new java.util.ArrayList<>();
        TimelineFile.read(out.resolve(TimelineFile.NAME), written::add);
        assertEquals(r.intervals(), written, "a short run's intervals are all inline too, and the same");
        assertEquals(ResultFile.read(out).fullTimeline(), r.fullTimeline());
    }

    @Test
    void twoDriversStartedInTheSameSecondGetTheirOwnDirectory() {
        Path a = OutputDirectory.defaultFor("tpcc", null);
        Path b = OutputDirectory.defaultFor("tpcc", null);
        assertNotEquals(a, b);
        assertTrue(a.getFileName().toString().matches("tpcc-\\d{8}-\\d{6}-[0-9a-f]{6}"), a.toString());
    }

    @Test
    void anOutputThatCannotBeCreatedIsRefusedBeforeAnythingStarts() {
        // Permission bits say root may write to /proc; only trying tells the truth.
        BadInputException e = assertThrows(BadInputException.class,
                () -> OutputDirectory.check(Path.of("/proc/gauntlet-nope")));
        assertTrue(e.getMessage().startsWith("cannot write to --out /proc/gauntlet-nope"), e.getMessage());
        assertEquals(0, e.getMessage().lines().count() - 1, "one line");
    }

    /** Like every workload's program: without a subcommand it runs {@code run} directly, as its default job. */
    @picocli.CommandLine.Command(name = "bench-x", subcommands = RunX.class)
    static final class RootX implements Runnable {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getSubcommands().get("run").execute("--", "a b");
        }
    }

    @picocli.CommandLine.Command(name = "run")
    static final class RunX implements java.util.concurrent.Callable<String> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;
        @picocli.CommandLine.Parameters
        List<String> rest;

        @Override
        public String call() {
            return Benchmark.of(spec, "x", System.out).commandLine();
        }
    }

    @Test
    void theStoredCommandLineIsTheSameWhetherTypedOrRunAsADefaultJob() {
        picocli.CommandLine typed = new picocli.CommandLine(new RootX());
        typed.execute("run", "--", "a b");
        assertEquals("bench-x run -- 'a b'", typed.getSubcommands().get("run").getExecutionResult());
        picocli.CommandLine defaultJob = new picocli.CommandLine(new RootX());
        defaultJob.execute();
        assertEquals("bench-x run -- 'a b'", defaultJob.getSubcommands().get("run").getExecutionResult(),
                "a default job runs the subcommand directly");
    }
}

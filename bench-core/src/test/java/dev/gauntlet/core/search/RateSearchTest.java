package dev.gauntlet.core.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunSpec;
import dev.gauntlet.core.objective.Objective;
import dev.gauntlet.core.report.CapacityChart;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.ScheduleCaughtUp;
import dev.gauntlet.core.run.SyntheticTarget;
import dev.gauntlet.core.run.Workload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capacity search over a target whose capacity is known: one server that takes 2 ms an operation. */
class RateSearchTest {

    @TempDir
    Path tmp;

    /** One operation at a time, 2 ms each: whatever the clients, about 500 a second and no more. */
    private static final Object SERVER = new Object();

    private static Workload<Integer> oneServer() {
        return Workload.repeating(Operation.of("op", s -> {
            synchronized (SERVER) {
                Thread.sleep(2);
            }
        }));
    }

    private static RunPlan base() {
        return RunPlan.closedLoop(4, Duration.ofSeconds(1)).toBuilder().prime(Duration.ofSeconds(1), null)
                .reportEvery(Duration.ofMillis(250)).build();
    }

    private record Searched(int exit, List<RunResult> steps, String printed) {
    }

    private Searched search(Path out, List<String> objectives, double start) {
        return search(out, objectives, start, Pacing.plan());
    }

    private Searched search(Path out, List<String> objectives, double start, Pacing<Void> pacing) {
        List<Objective> judged = Objective.parseAll(objectives);
        RateSearch<Void> search = new RateSearch<>(pacing, judged, start, 0, 0.10);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(printed, true, StandardCharsets.UTF_8);
        List<RunResult> steps = new java.util.ArrayList<>();
        int exit = SearchRun.run(search, null, base(), out, console, (step, dir) -> {
            RunResult r = new Benchmark("bench-test", "test", List.of("run", "--find-max-rate"),
                    new PrintStream(new ByteArrayOutputStream())).judging(judged)
                    .run(RunSpec.of(step.plan(), oneServer(), SyntheticTarget.direct()).variant(step.label()).out(dir));
            steps.add(r);
            return r;
        });
        return new Searched(exit, steps, printed.toString(StandardCharsets.UTF_8));
    }

    /** The plan's own pacing ({@link Pacing#plan()}), with the most it may try and the workload's own failures. */
    private static class PlanPacing implements Pacing<Void> {
        private final Pacing<Void> plan = Pacing.plan();

        @Override
        public RunPlan at(Void prepared, RunPlan base, double rate) {
            return plan.at(prepared, base, rate);
        }

        @Override
        public double achieved(RunResult r) {
            return plan.achieved(r);
        }
    }

    @Test
    void findsTheCapacityOfATargetWhoseCapacityIsKnownWithinTheResolution() throws Exception {
        Path out = tmp.resolve("search");
        Searched s = search(out, List.of("p99 <= 50ms"), 0);
        double raw = s.steps().get(0).totalCount() / s.steps().get(0).measuredSeconds();
        assertTrue(raw > 250 && raw < 520, "the unthrottled step runs at the server's pace: " + raw);
        String summary = Files.readString(out.resolve(RunSearch.SUMMARY));
        Matcher m = Pattern.compile("Highest rate meeting the objectives: ([\\d,]+) ops/s").matcher(summary);
        assertTrue(m.find(), summary);
        double answer = Double.parseDouble(m.group(1).replace(",", ""));
        // Within the resolution (10%) of the capacity, with room for one step of noise below it; never above it.
        assertTrue(answer >= 0.75 * raw && answer <= 1.03 * raw, "answer " + answer + " for a capacity of " + raw
                + "\n" + summary);
        assertEquals(ExitCode.OK, s.exit(), s.printed());
        // Above the capacity the steps missed, each saying why; the answer was run twice (the confirmation, or, where
        // that missed once, its run again).
        RunResult last = s.steps().get(s.steps().size() - 1);
        assertTrue(last.variant().matches("(confirm|again-rate)-" + Math.round(answer)),
                "the last step confirms the answer: " + last.variant());
        assertTrue(summary.contains("| missed: "), summary);
        assertTrue(summary.contains("(met again by a confirmation run)"), summary);
        assertTrue(s.printed().contains("step 1: unthrottled: "), s.printed());
        assertTrue(s.printed().contains("**Highest rate meeting the objectives: "), s.printed());
        // Each step is a run of its own; the objectives are judged in each step's result too.
        assertEquals(s.steps().size(), Files.list(out).filter(p -> p.getFileName().toString().startsWith("step-")).count());
        assertEquals(1, ResultFile.read(out.resolve("step-02-rate-" + Math.round(Math.max(1, Math.round(raw * 0.5)))))
                .objectives().size());
        assertTrue(Files.readString(out.resolve(CapacityChart.HTML)).contains("\"budgets\":{\"p99 <= 50ms\":50.0}"));
    }

    @Test
    void aTargetThatMeetsNoRateEndsTheSearchWithExitFour() throws Exception {
        Path out = tmp.resolve("none");
        // 2 ms an operation: no step has a p99 of 0.5 ms; from 4/s the rate halves until it cannot, each rate run
        // twice before it counts as missed.
        Searched s = search(out, List.of("p99 <= 0.5ms"), 4);
        assertEquals(ExitCode.OBJECTIVE_MISSED, s.exit(), s.printed());
        assertEquals(List.of("unthrottled", "rate-4", "again-rate-4", "rate-2", "again-rate-2", "rate-1",
                "again-rate-1"),
                s.steps().stream().map(RunResult::variant).toList());
        String summary = Files.readString(out.resolve(RunSearch.SUMMARY));
        assertTrue(summary.contains("**Nothing met the objectives; next step 1 ops/s missed: p99 <= 0.5ms: "), summary);
    }

    @Test
    void oneStallDoesNotDecideAStepARateIsMissedOnlyTwice() throws Exception {
        Path out = tmp.resolve("stall");
        // The first throttled step (half the raw rate, well within the capacity) misses once, as one stall of a shared
        // machine makes a step miss; run again, it meets, and the search goes on up to the capacity.
        Pacing<Void> stallOnce = new PlanPacing() {
            private boolean stalled;

            @Override
            public List<String> failures(RunResult r) {
                if (r.variant() != null && r.variant().startsWith("rate-") && !stalled) {
                    stalled = true;
                    return List.of("a stall");
                }
                return List.of();
            }
        };
        Searched s = search(out, List.of("p99 <= 50ms"), 0, stallOnce);
        List<String> steps = s.steps().stream().map(RunResult::variant).toList();
        assertEquals("again-" + steps.get(1), steps.get(2), "the missed rate runs again at once: " + steps);
        double raw = s.steps().get(0).totalCount() / s.steps().get(0).measuredSeconds();
        String summary = Files.readString(out.resolve(RunSearch.SUMMARY));
        Matcher m = Pattern.compile("Highest rate meeting the objectives: ([\\d,]+) ops/s").matcher(summary);
        assertTrue(m.find(), summary);
        double answer = Double.parseDouble(m.group(1).replace(",", ""));
        // Not below the stalled step (half the raw rate): the search went on up to the capacity.
        assertTrue(answer >= 0.75 * raw, "answer " + answer + " for a capacity of " + raw + ": " + steps);
        assertTrue(summary.contains("missed: a stall"), summary);
        assertEquals(ExitCode.OK, s.exit(), s.printed());
    }

    @Test
    void theFirstThrottledStepWaitsForTheCompilersAgainBesideItsSchedule() {
        // The raw step settled the compilers on the back-to-back path; the first step on a schedule runs other code
        // (clients waiting for their slots), whose compiling took 17 s of priming in a bench-script search.
        Condition settled = inPhase -> true;
        RunPlan base = RunPlan.closedLoop(4, Duration.ofSeconds(10)).toBuilder().prime(Duration.ofSeconds(2), settled)
                .build();
        RateSearch<Void> search = new RateSearch<>(Pacing.plan(), Objective.parseAll(List.of("p99 <= 50ms")), 0, 0,
                0.10);
        RunSearch.Step raw = search.next(null, base, List.of());
        assertEquals("unthrottled", raw.label());
        RunResult rawRun = RunResult.builder().measuredSeconds(10)
                .operations(List.of(OperationResult.of("op", 4_000, 0, 0, 400, null, null, null, null, null))).build();
        RunSearch.Step first = search.next(null, base, List.of(rawRun));
        assertEquals("rate-200", first.label());
        assertEquals(RateSearch.RAW_PRIME_LIMIT, first.plan().prime(), "as long as the raw step's priming may take");
        assertTrue(first.plan().primeUntil() != settled && !(first.plan().primeUntil() instanceof ScheduleCaughtUp),
                "the compilers and the schedule: " + first.plan().primeUntil());
        // The next steps (here the miss run again: nothing was measured) wait for their schedule alone.
        RunSearch.Step next = search.next(null, base, List.of(rawRun, rawRun));
        assertEquals("again-rate-200", next.label());
        assertEquals(Duration.ofSeconds(2), next.plan().prime());
        assertTrue(next.plan().primeUntil() instanceof ScheduleCaughtUp, String.valueOf(next.plan().primeUntil()));
    }

    @Test
    void aSearchMetAtTheMostItMayTryConfirmsItAndSaysSo() throws Exception {
        Path out = tmp.resolve("capped");
        // The most it may try (as bench-tpcc's loaded warehouses are) is below the server's capacity.
        Pacing<Void> capped = new PlanPacing() {
            @Override
            public double most(Void prepared) {
                return 150;
            }
        };
        Searched s = search(out, List.of("p99 <= 50ms"), 0, capped);
        assertEquals(ExitCode.OK, s.exit(), s.printed());
        assertEquals(List.of("unthrottled", "rate-150", "confirm-150"), s.steps().stream().map(RunResult::variant).toList());
        String summary = Files.readString(out.resolve(RunSearch.SUMMARY));
        assertTrue(summary.contains("**Highest rate meeting the objectives: 150 ops/s (p99 <= 50ms: "), summary);
        assertTrue(summary.contains("no step missed (the search tries no more than 150 ops/s)"), summary);
    }
}

package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Recovery judged against the baseline's own variation, with three verdicts. The baseline is a noisy closed loop, as
 * a `--url` run's was: New-Orders a second swinging 830-1,390 from one 1 s interval to the next (a third of its 10 s
 * windows more than 10% under its mean), p95 swinging with them.
 */
class RecoveryVerdictsTest {

    private static final RecoveryRule RULE = RecoveryRule.of("baseline", "newOrder", RecoveryRule.WINDOW,
            RecoveryRule.HOLD, RecoveryRule.TOLERANCE, RecoveryRule.LATENCY_FACTOR);

    /** One 1 s interval ending at {@code t}: {@code rate} New-Orders, their latencies around {@code ms}. */
    private static Interval second(int t, String phase, int rate, double ms, Random noise) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < rate; i++) {
            h.recordValue(Math.max(1, Math.round(ms * (0.5 + noise.nextDouble()) * 1e6)));
        }
        return new Interval(t, 1.0, phase, Map.of("newOrder", IntervalOperation.of(h, 1.0, 0, 0, Map.of())), 0, 0,
                Map.of(), Map.of(), Map.of());
    }

    /** A noisy closed loop for {@code seconds} from {@code from}: throughput and latency swing together, seeded. */
    private static void noisy(List<Interval> series, int from, int seconds, String phase, long seed) {
        Random noise = new Random(seed);
        for (int t = from + 1; t <= from + seconds; t++) {
            // Slow stretches of several seconds, as a closed loop behind checkpoints and vacuum has them.
            int rate = (int) Math.max(830, Math.min(1390, 1110 + 280 * Math.sin(t / 5.0) + 60 * noise.nextGaussian()));
            series.add(second(t, phase, rate, 8.0 * 1110 / rate, noise));
        }
    }

    private static void flat(List<Interval> series, int from, int seconds, String phase, int rate) {
        Random noise = new Random(from);
        for (int t = from + 1; t <= from + seconds; t++) {
            series.add(second(t, phase, rate, 8.0, noise));
        }
    }

    private static RunResult run(List<Interval> series, List<Phase> phases, DisruptionRecord... disruptions) {
        return RunResult.builder().runId(RunResult.newRunId()).workload("tpcc").command("run").clients(64)
                .intervals(series).phases(phases).disruptions(List.of(disruptions)).build();
    }

    private static DisruptionRecord ran(String name, double start, double end) {
        return new DisruptionRecord(name, start, end, start, end, DisruptionRecord.DONE, List.of());
    }

    private static List<Phase> phases(double baselineEnd, double end) {
        return List.of(new Phase("baseline", 0, baselineEnd), new Phase("faults", baselineEnd, end));
    }

    @Test
    void theNoisyBaselineIsNoisy() {
        List<Interval> series = new ArrayList<>();
        noisy(series, 0, 120, "baseline", 1);
        RollingWindowsBelow below = RollingWindowsBelow.of(series);
        assertTrue(below.share() > 0.25, "the premise: over a quarter of the baseline's windows are >10% under its "
                + "mean: " + below);
    }

    /** A restart on that baseline: nothing commits for 2.7 s, then the same noisy loop. Back within a window. */
    @Test
    void aRestartOnANoisyClosedLoopBaselineIsRecoveredWithinSeconds() {
        List<Interval> series = new ArrayList<>();
        noisy(series, 0, 120, "baseline", 1);
        flat(series, 120, 3, "faults", 0);
        noisy(series, 123, 60, "faults", 2);
        RunResult judged = RecoveryAnalysis.apply(run(series, phases(120, 183), ran("restart", 120, 122.7)), RULE);
        DisruptionRecord d = judged.disruptions().get(0);
        assertEquals(DisruptionRecord.RECOVERED, d.recovery(), d + " " + judged.metrics());
        assertTrue(d.recoverySeconds() <= RULE.windowSeconds() + 1, "back within a window: " + d);
        assertTrue(judged.metrics().get("recoveryFloorOpsPerSecond")
                < (1 - RULE.tolerance()) * judged.metrics().get("baselineOpsPerSecond"), judged.metrics().toString());
    }

    /** The baseline, run again after a disruption that did nothing, is recovered against itself. */
    @Test
    void theBaselineRunTwiceIsRecoveredAgainstItself() {
        for (long seed = 1; seed <= 20; seed++) {
            List<Interval> series = new ArrayList<>();
            noisy(series, 0, 120, "baseline", seed);
            List<Interval> again = new ArrayList<>();
            noisy(again, 0, 120, "baseline", seed);
            again.forEach(i -> series.add(new Interval(i.t() + 120, i.seconds(), "faults", i.operations(), 0, 0,
                    Map.of(), Map.of(), Map.of())));
            DisruptionRecord d = RecoveryAnalysis.apply(run(series, phases(120, 240), ran("nothing", 120, 120)), RULE)
                    .disruptions().get(0);
            assertEquals(DisruptionRecord.RECOVERED, d.recovery(), "seed " + seed + ": " + d);
        }
    }

    /** A fault that never ends: throughput stays at 40% of the baseline for all the time it had. */
    @Test
    void aFaultThatNeverEndsIsNotRecovered() {
        List<Interval> series = new ArrayList<>();
        noisy(series, 0, 120, "baseline", 1);
        flat(series, 120, 120, "faults", 444);
        DisruptionRecord d = RecoveryAnalysis.apply(run(series, phases(120, 240), ran("lasting", 120, 125)), RULE)
                .disruptions().get(0);
        assertEquals(DisruptionRecord.NOT_RECOVERED, d.recovery(), d.toString());
        assertEquals("not back in the 115.0s to the end of phase faults at 240.0s", d.recoveryNote());
    }

    /** The next disruption, or the phase's end, before window + hold could pass: not judged, and which and when. */
    @Test
    void whatEndsTheWaitBeforeTheRuleCouldHoldLeavesItNotJudged() {
        List<Interval> series = new ArrayList<>();
        noisy(series, 0, 120, "baseline", 1);
        flat(series, 120, 120, "faults", 444);
        RunResult judged = RecoveryAnalysis.apply(run(series, phases(120, 240), ran("first", 120, 125),
                ran("second", 140, 150), ran("last", 220, 225)), RULE);
        DisruptionRecord first = judged.disruptions().get(0);
        assertEquals(DisruptionRecord.NOT_JUDGED, first.recovery(), first.toString());
        assertEquals("the next disruption, second, at 140.0s came 15.0s after its end, before the rule could hold "
                + "(it needs 40.0s: a 10.0s window, held 30.0s)", first.recoveryNote());
        assertEquals(DisruptionRecord.NOT_RECOVERED, judged.disruptions().get(1).recovery(),
                "70 s to the next: time enough, and not back");
        DisruptionRecord last = judged.disruptions().get(2);
        assertEquals(DisruptionRecord.NOT_JUDGED, last.recovery());
        assertTrue(last.recoveryNote().startsWith("the end of phase faults at 240.0s came 15.0s after its end"),
                last.recoveryNote());
        assertEquals("not judged: " + first.recoveryNote(), DisruptionSpan.of(first).recoveryText());
        assertTrue(Dashboard.html(judged).contains(">3 (1 not recovered, 2 not judged)<"), "each verdict counted");
    }

    /** The share of a series' whole 10 s windows more than 10% under its mean. */
    private record RollingWindowsBelow(int below, int of) {

        static RollingWindowsBelow of(List<Interval> series) {
            double mean = series.stream().mapToLong(i -> i.operations().get("newOrder").count()).average().orElse(0);
            int below = 0;
            int of = 0;
            for (int end = 10; end <= series.size(); end++) {
                double rate = series.subList(end - 10, end).stream()
                        .mapToLong(i -> i.operations().get("newOrder").count()).sum() / 10.0;
                of++;
                below += rate < 0.9 * mean ? 1 : 0;
            }
            return new RollingWindowsBelow(below, of);
        }

        double share() {
            return below / (double) of;
        }
    }
}

package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gauntlet.core.report.RecoveryAnalysis;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.RunResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Recovery read from a synthetic series with known dips: 100 New-Orders/s at 10 ms in the baseline; a disruption
 * from 60 s to 70 s during which nothing commits; then a slow return. The figures the analysis gives are the ones
 * the series was built to have.
 */
class RecoveryAnalysisTest {

    private static final RecoveryRule RULE = RecoveryRule.of("baseline", "newOrder", Duration.ofSeconds(10),
            Duration.ofSeconds(30), 0.10, 2.0);

    /** One 1 s interval at second {@code t} with {@code rate} New-Orders at {@code ms} and as many payments. */
    private static Interval second(int t, String phase, int rate, double ms) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < rate; i++) {
            h.recordValue((long) (ms * 1e6));
        }
        IntervalOperation op = IntervalOperation.of(h, 1.0, 0, 0, Map.of());
        Map<String, IntervalOperation> ops = new LinkedHashMap<>();
        ops.put("newOrder", op);
        ops.put("payment", op);
        return new Interval(t, 1.0, phase, ops, 0, 0, Map.of(), Map.of(), Map.of());
    }

    private static RunResult run(List<Interval> intervals, List<Phase> phases, List<DisruptionRecord> disruptions) {
        return RunResult.builder().runId(RunResult.newRunId()).workload("tpcc").command("run").clients(8)
                .intervals(intervals).phases(phases).disruptions(disruptions).build();
    }

    private static DisruptionRecord disruption(String name, double start, double end) {
        return new DisruptionRecord(name, start, end, start, end, DisruptionRecord.DONE, List.of());
    }

    /**
     * The condition {@code until: recovered} holds at the second the result's analysis would say the workload is back,
     * not before: heard interval by interval, as a run closes them, with a phase of faults in between.
     */
    @Test
    void aRecoveryPhaseEndsWhenTheWindowIsBackAndHasHeldAndNotBefore() {
        Recovered recovered = new Recovered(RULE, "recovery");
        recovered.runStarts();
        List<Interval> series = new ArrayList<>();
        for (int t = 1; t <= 40; t++) {
            series.add(second(t, "baseline", 100, 10));
        }
        for (int t = 41; t <= 60; t++) {
            series.add(second(t, "faults", t > 50 ? 0 : 100, 10));     // nothing commits for the last 10 s
        }
        for (int t = 61; t <= 200; t++) {
            series.add(second(t, "recovery", t <= 80 ? 50 : 100, 10)); // half speed for 20 s, then back
        }
        double heldAt = -1;
        for (Interval i : series) {
            recovered.observe(i);
            if (heldAt < 0 && recovered.holds(Duration.ofSeconds((long) i.t() - 60))) {
                heldAt = i.t();
            }
        }
        // Back at full rate from 81 s: the first 10 s window at 90/s or more is the one ending at 88 s (seconds 79-88:
        // 2 x 50 + 8 x 100 = 900), 28 s into the phase; held for 30 s, the phase ends at 118 s, as the analysis of
        // the whole series says.
        RunResult whole = run(series, List.of(new Phase("baseline", 0, 40), new Phase("faults", 40, 60),
                new Phase("recovery", 60, 200)), List.of(disruption("outage", 60, 60)));
        double back = RecoveryAnalysis.apply(whole, RULE).disruptions().get(0).recoverySeconds();
        assertEquals(60 + back + RULE.hold().toSeconds(), heldAt, 1.0, "held " + heldAt + ", back after " + back);
        assertTrue(heldAt > 100, "not while the rate was half: " + heldAt);

        // A disruption that ended in the phase before is judged through the recovery phase, as the condition was;
        // without it, only until its own phase ends (5 s after its end: too short for a 10 s window held 30 s, so
        // not judged).
        RunResult faulted = run(series, List.of(new Phase("baseline", 0, 40), new Phase("faults", 40, 60),
                new Phase("recovery", 60, 200)), List.of(disruption("outage", 50, 55)));
        assertEquals(DisruptionRecord.NOT_JUDGED, RecoveryAnalysis.apply(faulted, RULE).disruptions().get(0).recovery());
        DisruptionRecord throughRecovery = RecoveryAnalysis.apply(faulted, RULE.throughPhases(List.of("recovery")))
                .disruptions().get(0);
        assertEquals(DisruptionRecord.RECOVERED, throughRecovery.recovery());
        assertEquals(88 - 55, throughRecovery.recoverySeconds(), 1e-9);

        // The same condition serves the next run of an experiment: forgotten, it holds again only once that run is back.
        recovered.runStarts();
        assertFalse(recovered.holds(Duration.ZERO));
        for (int t = 1; t <= 40; t++) {
            recovered.observe(second(t, "baseline", 100, 10));
        }
        for (int t = 41; t <= 200; t++) {
            recovered.observe(second(t, "recovery", 40, 10));             // never back: the length will end it
        }
        assertFalse(recovered.holds(Duration.ofSeconds(160)), "40/s is not 100/s");
    }

    @Test
    void recoveryIsTheTimeFromTheEndUntilTheRollingWindowIsBackAndHolds() {
        List<Interval> series = new ArrayList<>();
        for (int t = 1; t <= 40; t++) {
            series.add(second(t, "baseline", 100, 10));
        }
        for (int t = 41; t <= 200; t++) {
            int rate;
            double ms = 10;
            if (t > 60 && t <= 70) {
                rate = 0;                         // the outage: nothing commits
            } else if (t > 70 && t <= 90) {
                rate = 50;                        // half speed for 20 s after it
            } else if (t > 90 && t <= 100) {
                rate = 100;                       // full speed but slow
                ms = 30;
            } else {
                rate = t > 160 && t <= 165 ? 0 : 100;
            }
            series.add(second(t, "faults", rate, ms));
        }
        List<Phase> phases = List.of(new Phase("baseline", 0, 40), new Phase("faults", 40, 200));
        RunResult judged = RecoveryAnalysis.apply(run(series, phases, List.of(disruption("outage", 60, 70),
                disruption("late", 158, 160))), RULE);
        DisruptionRecord outage = judged.disruptions().get(0);
        // Full rate is back from 91 s, but at 30 ms until 100 s: the first 10 s window whose p95 is at most 20 ms is
        // the one ending at 110 s (seconds 101-110), and it holds for 30 s. Recovered 40 s after the end at 70 s.
        assertEquals(DisruptionRecord.RECOVERED, outage.recovery());
        assertEquals(40.0, outage.recoverySeconds(), 1e-9);
        DisruptionRecord late = judged.disruptions().get(1);
        // The dip at 161-165 comes after it ended; windows are healthy again from the one ending at 174 s, which
        // would have to hold until 204 s, past the phase's end at 200 s: back, its hold cut short, so not judged (the
        // data do not say it would not have held).
        assertEquals(DisruptionRecord.NOT_JUDGED, late.recovery());
        assertEquals("back at 174.0s, held 26.0s of 30.0s before the end of phase faults at 200.0s",
                late.recoveryNote());
        assertNull(late.recoverySeconds());
        assertEquals(15.0, judged.metrics().get(RecoveryAnalysis.UNAVAILABLE), 1e-9, "10 s + 5 s with no commit");
        assertEquals(0.0, judged.metrics().get(RecoveryAnalysis.UNAVAILABLE + ".baseline"), 1e-9);
        assertEquals(15.0, judged.metrics().get(RecoveryAnalysis.UNAVAILABLE + ".faults"), 1e-9);
        assertEquals(100.0, judged.metrics().get("baselineOpsPerSecond"), 1e-9);
    }

    @Test
    void aDisruptionWithoutEffectRecoversAtOnceAndOneNeverStartedIsNotJudged() {
        List<Interval> series = new ArrayList<>();
        for (int t = 1; t <= 100; t++) {
            series.add(second(t, t <= 40 ? "baseline" : "stress", 100, 10));
        }
        DisruptionRecord neverStarted = new DisruptionRecord("late", 99, 120.0, null, null,
                DisruptionRecord.NOT_STARTED, List.of());
        RunResult judged = RecoveryAnalysis.apply(run(series, List.of(new Phase("baseline", 0, 40),
                new Phase("stress", 40, 100)), List.of(disruption("harmless", 50, 55), neverStarted)), RULE);
        assertEquals(1.0, judged.disruptions().get(0).recoverySeconds(), 1e-9,
                "the first window after its end (ending at 56 s) is already the baseline's");
        assertNull(judged.disruptions().get(1).recovery());
    }
}

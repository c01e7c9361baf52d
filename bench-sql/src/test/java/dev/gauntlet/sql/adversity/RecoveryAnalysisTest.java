package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
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

    private static final RecoveryRule RULE = new RecoveryRule("baseline", "newOrder", Duration.ofSeconds(10),
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
        // would have to hold until 204 s, past the phase's end at 200 s: not recovered before the phase is over.
        assertEquals(DisruptionRecord.NOT_RECOVERED, late.recovery());
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

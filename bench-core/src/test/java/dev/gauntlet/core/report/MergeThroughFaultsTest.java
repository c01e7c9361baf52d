package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two driver processes of one run through faults ({@code run --plan --worker}), merged: a 300 s plan (baseline
 * 100 s, outage 50 s with a 5 s disruption in which nothing commits, recovery 150 s) at one-second intervals, the
 * second process started 0.3 s before the first. Worker 0 injected the disruption, worker 1 records it as planned;
 * the merge keeps worker 0's record on the merged timeline, judges recovery and unavailability there, and gives each
 * phase the figures of both processes' intervals in it.
 */
class MergeThroughFaultsTest {

    private static final RecoveryRule RULE = RecoveryRule.of("baseline", "newOrder", Duration.ofSeconds(10),
            Duration.ofSeconds(10), 0.10, 2.0).throughPhases(List.of("recovery"));
    private static final Instant START = Instant.parse("2026-11-28T10:00:00Z");

    /** Second {@code t} of a process: {@code rate} New-Orders at {@code ms}, none from 110 s to 115 s. */
    private static Interval second(int t, double ms, int rate) {
        String phase = t <= 100 ? "baseline" : t <= 150 ? "outage" : "recovery";
        Histogram h = RunFixture.histogram();
        int n = t > 110 && t <= 115 ? 0 : t > 115 && t <= 125 ? rate / 2 : rate;
        for (int i = 0; i < n; i++) {
            h.recordValue(Math.round((ms + i % 7) * 1e6));
        }
        return new Interval(t, 1.0, phase, Map.of("newOrder", IntervalOperation.of(h, 1.0, 0, 0, Map.of())), 0, 0,
                Map.of(), Map.of(), Map.of());
    }

    /** A process's result: its intervals, phases with their figures from them, its disruption record. */
    private static RunResult process(int worker, double startOffset, double ms, int rate, DisruptionRecord d) {
        List<Interval> intervals = new ArrayList<>();
        Histogram all = RunFixture.histogram();
        Map<String, Histogram> byPhase = new LinkedHashMap<>();
        for (int t = 1; t <= 300; t++) {
            Interval i = second(t, ms, rate);
            intervals.add(i);
            Histogram h = HistogramCodec.decode(i.operations().get("newOrder").histogram());
            all.add(h);
            byPhase.computeIfAbsent(i.phase(), p -> RunFixture.histogram()).add(h);
        }
        List<Phase> phases = new ArrayList<>();
        double[][] spans = {{0, 100}, {100, 150}, {150, 300}};
        int k = 0;
        for (Map.Entry<String, Histogram> p : byPhase.entrySet()) {
            double length = spans[k][1] - spans[k][0];
            phases.add(new Phase(p.getKey(), spans[k][0], spans[k][1], Map.of(), true,
                    Map.of("newOrder", IntervalOperation.of(p.getValue(), length, 0, 0, Map.of()))));
            k++;
        }
        Instant started = START.plusMillis(Math.round(startOffset * 1000));
        return RunResult.builder().runId(RunResult.newRunId()).workload("tpcc").command("run").clients(2)
                .startedAt(started.toString()).endedAt(started.plusSeconds(300).toString()).measuredSeconds(300)
                .parameters(Map.of("reportEvery", "1s", "worker", worker + "/2"))
                .operations(List.of(RunFixture.operation("newOrder", all, 300, 0, 0, null, null)))
                .intervals(intervals).phases(phases).disruptions(List.of(d)).recoveryRule(RULE).build();
    }

    private static final DisruptionRecord INJECTED = new DisruptionRecord("outage", 110, 115.0, 110.02, 115.03,
            DisruptionRecord.DONE, List.of("start: exit 0 in 0.1 s"));
    private static final DisruptionRecord PLANNED = new DisruptionRecord("outage", 110, 115.0, null, null,
            DisruptionRecord.PLANNED, List.of("injected by another driver process of the run (worker 0)"));

    @Test
    void theInjectingWorkersRecordIsKeptOnTheMergedTimelineAndJudgedThere(@TempDir Path dir) throws Exception {
        RunResult w0 = process(0, 0.3, 10, 60, INJECTED);
        RunResult w1 = process(1, 0.0, 20, 40, PLANNED);
        RunResult merged = ResultMerge.merge(List.of(w0, w1));

        assertEquals(1, merged.disruptions().size(), merged.disruptions().toString());
        DisruptionRecord d = merged.disruptions().get(0);
        assertEquals(DisruptionRecord.DONE, d.outcome());
        assertEquals(INJECTED.notes(), d.notes());
        assertEquals(110.32, d.startSeconds(), 1e-6, "worker 0 started 0.3 s after the merged timeline's origin");
        assertEquals(115.33, d.endSeconds(), 1e-6);
        assertEquals(RULE, merged.recoveryRule());
        assertEquals(DisruptionRecord.RECOVERED, d.recovery(), d.toString());
        // Both at half speed until 125 s, full from 126 s: the first 10 s window at 90% of the baseline's 100 a second
        // or more is 124-133 s (2 x 50 + 8 x 100), whose last interval ends at 133.3 s on the merged timeline.
        assertEquals(133.3 - 115.33, d.recoverySeconds(), 1e-6, d.toString());
        assertEquals(5.0, merged.metrics().get(RecoveryAnalysis.UNAVAILABLE), 1e-9, "neither process committed");
        assertEquals(5.0, merged.metrics().get(RecoveryAnalysis.UNAVAILABLE + ".outage"), 1e-9);
        assertEquals(0.0, merged.metrics().get(RecoveryAnalysis.UNAVAILABLE + ".baseline"), 1e-9);
        assertEquals(100.0, merged.metrics().get("baselineOpsPerSecond"), 1e-9, "60 + 40 New-Orders a second");
        assertTrue(!merged.parameters().containsKey(ResultMerge.DROPPED_METRICS)
                || !String.valueOf(merged.parameters().get(ResultMerge.DROPPED_METRICS)).contains("unavailable"),
                "judged again, not dropped: " + merged.parameters());

        for (Phase p : merged.phases()) {
            Histogram both = RunFixture.histogram();
            long count = 0;
            double rate = 0;
            for (RunResult w : List.of(w0, w1)) {
                long mine = 0;
                double seconds = 0;
                for (Interval i : w.intervals()) {
                    if (i.phase().equals(p.name())) {
                        both.add(HistogramCodec.decode(i.operations().get("newOrder").histogram()));
                        mine += i.operations().get("newOrder").count();
                        seconds += i.seconds();
                    }
                }
                count += mine;
                rate += mine / seconds;
            }
            IntervalOperation op = p.operations().get("newOrder");
            assertEquals(count, op.count(), p.name());
            assertEquals(both.getValueAtPercentile(95) / 1e6, op.p95(), 1e-9, p.name());
            assertEquals(both.getMaxValue() / 1e6, op.max(), 1e-9, p.name());
            assertEquals(rate, op.opsPerSecond(), 1e-9, p.name());
        }
        assertEquals(0.0, merged.phases().get(0).startSeconds(), 1e-6);
        assertEquals(300.3, merged.phases().get(2).endSeconds(), 1e-6);

        // Through the file format and its timeline file: the merged timeline whole, the result's downsampled.
        Path file = dir.resolve("timeline.jsonl.gz");
        RunResult withFile = ResultMerge.merge(List.of(w0, w1),
                List.of(Timeline.of(w0.intervals()), Timeline.of(w1.intervals())), file);
        assertEquals(300, withFile.fullTimeline().intervals());
        assertTrue(withFile.intervals().size() <= 120, "downsampled: " + withFile.intervals().size());
        assertEquals(d.recoverySeconds(), withFile.disruptions().get(0).recoverySeconds(), 1e-9,
                "recovery judged on every interval, not on the downsampled ones");
        assertEquals(5.0, withFile.metrics().get(RecoveryAnalysis.UNAVAILABLE), 1e-9);
        ResultFile.write(withFile, dir.resolve(ResultFile.NAME));
        RunResult read = ResultFile.read(dir.resolve(ResultFile.NAME));
        assertEquals(RULE, read.recoveryRule());
        assertEquals(300, Timeline.of(read, dir).size());
        long[] seen = new long[1];
        Timeline.of(read, dir).forEach(i -> seen[0]++);
        assertEquals(300, seen[0]);
    }

    @Test
    void aDisruptionNoInputInjectedStaysPlannedAndUnjudged() {
        RunResult merged = ResultMerge.merge(List.of(process(0, 0.3, 10, 60, PLANNED),
                process(1, 0.0, 20, 40, PLANNED)));
        assertEquals(1, merged.disruptions().size());
        DisruptionRecord d = merged.disruptions().get(0);
        assertEquals(DisruptionRecord.PLANNED, d.outcome());
        assertNull(d.recovery());
        assertNotNull(merged.metrics().get(RecoveryAnalysis.UNAVAILABLE));
    }

    @Test
    void processesJudgedByDifferentRulesAreNotOneRun() {
        RunResult other = process(1, 0.0, 20, 40, PLANNED).toBuilder()
                .recoveryRule(RULE.throughPhases(List.of())).build();
        ResultFormatException e = assertThrows(ResultFormatException.class,
                () -> ResultMerge.merge(List.of(process(0, 0.3, 10, 60, INJECTED), other)));
        assertTrue(e.getMessage().contains("recovery rules"), e.getMessage());
    }
}

package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A merge must give exactly what one process recording every sample would have: same counts, same percentiles. */
class ResultMergeTest {

    private static final String[] OPS = {"newOrder", "payment"};
    private static final int PROCESSES = 3;
    private static final int INTERVALS = 6;
    private static final double[] MEASURED = {60.0, 59.5, 60.25};

    /** Random samples split over three processes, and the single histograms of all of them for reference. */
    private static final class Samples {
        final Map<String, Histogram> total = new HashMap<>();
        final Map<String, Histogram[]> totalPerInterval = new HashMap<>();
        final Map<String, Histogram>[] perProcess;
        final Map<String, Histogram[]>[] perProcessInterval;

        @SuppressWarnings("unchecked")
        Samples(long seed, int perOperation) {
            perProcess = new Map[PROCESSES];
            perProcessInterval = new Map[PROCESSES];
            for (int p = 0; p < PROCESSES; p++) {
                perProcess[p] = new HashMap<>();
                perProcessInterval[p] = new HashMap<>();
            }
            Random rnd = new Random(seed);
            for (String op : OPS) {
                total.put(op, RunFixture.histogram());
                totalPerInterval.put(op, fresh());
                for (int p = 0; p < PROCESSES; p++) {
                    perProcess[p].put(op, RunFixture.histogram());
                    perProcessInterval[p].put(op, fresh());
                }
                for (int i = 0; i < perOperation; i++) {
                    // Log-uniform from 50 us to 5 s: every bucket magnitude gets samples, as in a real tail.
                    long nanos = (long) Math.exp(Math.log(50_000) + rnd.nextDouble() * Math.log(100_000));
                    int process = rnd.nextInt(PROCESSES);
                    int interval = rnd.nextInt(INTERVALS);
                    total.get(op).recordValue(nanos);
                    totalPerInterval.get(op)[interval].recordValue(nanos);
                    perProcess[process].get(op).recordValue(nanos);
                    perProcessInterval[process].get(op)[interval].recordValue(nanos);
                }
            }
        }

        private static Histogram[] fresh() {
            Histogram[] hs = new Histogram[INTERVALS];
            for (int i = 0; i < INTERVALS; i++) {
                hs[i] = RunFixture.histogram();
            }
            return hs;
        }

        RunResult process(int p) {
            // Three processes started a millisecond apart, each measuring from its start.
            RunFixture run = new RunFixture().variant("sync=on").clients(4 + p).measuredSeconds(MEASURED[p])
                    .startedAt(p == 0 ? "2026-11-22T10:00:00Z" : "2026-11-22T10:00:00.00" + p + "Z",
                            "2026-11-22T10:01:1" + (5 - p) + "Z")
                    .phase("measure", 0, MEASURED[p])
                    .parameter("warehouseRange", (p * 4 + 1) + "-" + (p * 4 + 4))
                    .metric("tpmC", 100.0 * (p + 1)).metric("efficiencyPercent", 90.0 + p, MetricInfo.higher())
                    .error("retryable", "40001", p + 1, "could not serialize (process " + p + ")")
                    .check(Check.pass("3.3.2.1 w_ytd = sum(d_ytd)", ""))
                    .check(p == 1 ? Check.fail("mix audit", "process 1 off") : Check.skip("mix audit", "too few"));
            if (p == 2) {
                run.error("connection", "08006", 1, "connection reset");
            }
            for (String op : OPS) {
                Histogram h = perProcess[p].get(op);
                Histogram service = h.copy();
                run.operation(RunFixture.operation(op, h, MEASURED[p], p, 2L * p, Timing.of(service), null));
            }
            for (int i = 0; i < INTERVALS; i++) {
                Map<String, IntervalOperation> ops = new HashMap<>();
                for (String op : OPS) {
                    ops.put(op, RunFixture.intervalOperation(perProcessInterval[p].get(op)[i], 10.0, 0));
                }
                run.interval(new Interval(10.0 * (i + 1) + p * 0.001, 10.0, i == 0 ? "warmup" : "measure", ops, p,
                        0));
            }
            return run.build();
        }

        List<RunResult> processes() {
            List<RunResult> runs = new ArrayList<>();
            for (int p = 0; p < PROCESSES; p++) {
                runs.add(process(p));
            }
            return runs;
        }
    }

    private static void assertSameDistribution(Histogram expected, Histogram actual, String what) {
        assertEquals(expected.getTotalCount(), actual.getTotalCount(), what + " count");
        assertEquals(expected.getMinValue(), actual.getMinValue(), what + " min");
        assertEquals(expected.getMaxValue(), actual.getMaxValue(), what + " max");
        assertEquals(expected.getMean(), actual.getMean(), 1e-6, what + " mean");
        for (double p = 0; p <= 100.0; p += 0.5) {
            assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), what + " p" + p);
        }
        for (double p : new double[] {99.9, 99.99, 99.999, 100.0}) {
            assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), what + " p" + p);
        }
    }

    @Test
    void mergedPercentilesEqualThoseOfOneHistogramOfAllSamples() {
        Samples s = new Samples(20261122L, 40_000);
        RunResult merged = ResultMerge.merge(s.processes());

        for (String op : OPS) {
            OperationResult m = merged.operation(op).orElseThrow();
            Histogram expected = s.total.get(op);
            assertSameDistribution(expected, HistogramCodec.decode(m.histogram()), op);
            assertEquals(expected.getTotalCount(), m.count());
            assertEquals(LatencySummary.of(expected), m.latencyMs(), op + " summary");
            assertEquals(LatencySummary.of(expected), m.serviceTime().latencyMs(), op + " service time");
            assertEquals(s.processes().stream().mapToDouble(r -> r.operation(op).orElseThrow().opsPerSecond()).sum(),
                    m.opsPerSecond(), 1e-9, "the sum of each process's rate over its own window");
            assertEquals(0 + 1 + 2, m.errors());
            assertEquals(0 + 2 + 4, m.retries());
        }
        assertEquals(INTERVALS, merged.intervals().size());
        for (int i = 0; i < INTERVALS; i++) {
            Interval interval = merged.intervals().get(i);
            assertEquals(10.0 * (i + 1) + 0.004, interval.t(), 1e-6, "aligned by time: the latest end, from the first start");
            assertEquals(0 + 1 + 2, interval.errors());
            for (String op : OPS) {
                Histogram expected = s.totalPerInterval.get(op)[i];
                IntervalOperation io = interval.operations().get(op);
                assertSameDistribution(expected, HistogramCodec.decode(io.histogram()), op + " interval " + i);
                assertEquals(expected.getTotalCount(), io.count());
                assertEquals(LatencySummary.of(expected).p99(), io.p99());
                assertEquals(expected.getTotalCount() / 10.0, io.opsPerSecond(), 1e-9);
            }
        }
    }

    /**
     * Objectives are judged again on the merged histograms: each driver's verdict, and any average of the drivers'
     * percentiles, can differ from the whole run's.
     */
    @Test
    void objectivesAreJudgedOnTheMergedHistogramsNotOnTheDriversVerdicts() {
        Samples s = new Samples(20261207L, 20_000);
        List<dev.gauntlet.core.objective.Objective> objectives = dev.gauntlet.core.objective.Objective.parseAll(
                List.of("p99 <= 2s", "p50(payment) <= 30ms", "errors <= 1%", "tpmC >= 600"));
        List<RunResult> processes = new ArrayList<>();
        for (RunResult p : s.processes()) {
            processes.add(p.toBuilder().objectives(objectives.stream().map(o -> o.judge(p)).toList()).build());
        }
        RunResult merged = ResultMerge.merge(processes);
        Histogram all = RunFixture.histogram();
        s.total.values().forEach(all::add);
        List<dev.gauntlet.core.result.ObjectiveOutcome> judged = merged.objectives();
        assertEquals(List.of("p99 <= 2s", "p50(payment) <= 30ms", "errors <= 1%", "tpmC >= 600"),
                judged.stream().map(dev.gauntlet.core.result.ObjectiveOutcome::objective).toList());
        assertEquals(all.getValueAtPercentile(99) / 1e6, judged.get(0).measured(), 1e-9, "p99 of every sample");
        assertEquals(s.total.get("payment").getValueAtPercentile(50) / 1e6, judged.get(1).measured(), 1e-9);
        assertEquals(all.getValueAtPercentile(99) <= 2e9, judged.get(0).met());
        // tpmC adds up over the drivers (100 + 200 + 300): no driver alone met it, the run does.
        assertEquals(600.0, judged.get(3).measured(), 1e-9);
        assertTrue(judged.get(3).met());
        assertTrue(processes.stream().noneMatch(p -> p.objectives().get(3).met()), "no driver alone has 600");
        long errors = merged.operations().stream().mapToLong(o -> o.errors()).sum();
        long due = merged.operations().stream().mapToLong(o -> o.attempted()).sum();
        assertEquals((double) errors / due, judged.get(2).measured(), 1e-12);
    }

    @Test
    void sumsCountsAndKeepsOnlyAdditiveMetrics() {
        RunResult merged = ResultMerge.merge(new Samples(7L, 3_000).processes());
        assertEquals(4 + 5 + 6, merged.clients());
        assertEquals(60.252, merged.measuredSeconds(), 1e-6);
        assertEquals("2026-11-22T10:00:00Z", merged.startedAt());
        assertEquals("2026-11-22T10:01:15Z", merged.endedAt());
        assertEquals(List.of(new ErrorCount("retryable", "40001", 1 + 2 + 3, "could not serialize (process 0)"),
                new ErrorCount("connection", "08006", 1, "connection reset")), merged.errors());
        assertEquals(Map.of("tpmC", 600.0), merged.metrics());
        assertEquals("efficiencyPercent", merged.parameters().get(ResultMerge.DROPPED_METRICS));
        assertEquals(3L, ((Number) merged.parameters().get(ResultMerge.MERGED_FROM)).longValue());
        assertEquals("clients, warehouseRange", merged.parameters().get(ResultMerge.DIFFERING_PARAMETERS));
        assertEquals(2, merged.checks().size(), "checks merged by name");
        assertEquals(Check.Status.PASS, merged.checks().get(0).status());
        assertEquals(Check.Status.FAIL, merged.checks().get(1).status(), "one failing process fails the check");
        assertEquals(List.of("newOrder", "payment"), merged.operations().stream().map(OperationResult::name).toList());
    }

    @Test
    void eachMetricMergesByTheRuleItsWorkloadDeclared(@TempDir Path dir) throws IOException {
        List<RunResult> runs = new ArrayList<>();
        double serverCpuNanos = 9e9; // what the one server spent, seen by every process
        for (RunResult r : new Samples(5L, 2_000).processes()) {
            int p = runs.size();
            long n = r.totalCount();
            runs.add(r.toBuilder().metrics(dev.gauntlet.core.result.Metrics.of(r)
                    .add("serverTpmC", p == 2 ? 1400.0 : 1000.0 + p, MetricInfo.higher().serverWide())
                    .add("driverCpuPerOperationMs", 0.1 * (p + 1), MetricInfo.lower().perOperation())
                    // process 1 misread the server (a third of its CPU): the median of the three ignores it
                    .add("serverCpuPerOperationMs", (p == 1 ? serverCpuNanos / 3 : serverCpuNanos) / 1e6 / n,
                            MetricInfo.lower().serverPerOperation()))
                    .build());
        }
        RunResult merged = ResultMerge.merge(runs);
        long all = runs.stream().mapToLong(RunResult::totalCount).sum();
        assertEquals(600.0, merged.metrics().get("tpmC"), 1e-9, "summed");
        assertEquals(1001.0, merged.metrics().get("serverTpmC"), 1e-9,
                "one server read three times: the median reading, not the sum nor moved by the outlier");
        double driverNanos = 0;
        for (int p = 0; p < runs.size(); p++) {
            driverNanos += 0.1 * (p + 1) * 1e6 * runs.get(p).totalCount();
        }
        assertEquals(driverNanos / 1e6 / all, merged.metrics().get("driverCpuPerOperationMs"), 1e-12,
                "the processes' driver CPU over all their operations");
        assertEquals(serverCpuNanos / 1e6 / all, merged.metrics().get("serverCpuPerOperationMs"), 1e-12,
                "the server's CPU over all the processes' operations");
        assertEquals("efficiencyPercent", merged.parameters().get(ResultMerge.DROPPED_METRICS), "no rule: dropped");
        assertEquals(MetricInfo.Merge.SERVER, merged.metricInfo("serverTpmC").merge());

        ResultFile.write(merged, dir.resolve(ResultFile.NAME));
        RunResult read = ResultFile.read(dir);
        assertEquals(MetricInfo.Merge.SERVER_PER_OPERATION, read.metricInfo("serverCpuPerOperationMs").merge());
        assertEquals(MetricInfo.Merge.SUM, read.metricInfo("tpmC").merge());
        assertTrue(read.metricInfo("tpmC").additive());
    }

    @Test
    void aResultWrittenBeforeMergeRulesReadsItsAdditiveFlag() {
        MetricInfo old = new com.fasterxml.jackson.databind.ObjectMapper().convertValue(
                Map.of("better", "higher", "additive", true), MetricInfo.class);
        assertEquals(MetricInfo.Merge.SUM, old.merge());
        MetricInfo ratio = new com.fasterxml.jackson.databind.ObjectMapper().convertValue(
                Map.of("better", "lower", "additive", false), MetricInfo.class);
        assertEquals(MetricInfo.Merge.NONE, ratio.merge());
    }

    @Test
    void mergedResultSurvivesTheFileFormat(@TempDir Path dir) throws IOException {
        Samples s = new Samples(99L, 5_000);
        RunResult merged = ResultMerge.merge(s.processes());
        ResultFile.write(merged, dir.resolve(ResultFile.NAME));
        RunResult read = ResultFile.read(dir);
        assertSameDistribution(s.total.get("payment"),
                HistogramCodec.decode(read.operation("payment").orElseThrow().histogram()), "payment after reading");
        assertEquals(merged.operations(), read.operations());
        assertEquals(merged.intervals(), read.intervals());
        assertEquals(merged.errors(), read.errors());
    }

    @Test
    void mergingMergesCountsTheOriginalProcesses() {
        Samples s = new Samples(3L, 1_000);
        RunResult firstTwo = ResultMerge.merge(s.processes().subList(0, 2));
        RunResult all = ResultMerge.merge(List.of(firstTwo, s.process(2)));
        assertEquals(3L, ((Number) all.parameters().get(ResultMerge.MERGED_FROM)).longValue());
        assertSameDistribution(s.total.get("newOrder"),
                HistogramCodec.decode(all.operation("newOrder").orElseThrow().histogram()), "nested merge");
    }

    @Test
    void intervalsWithoutHistogramsShowTheWorstInputNotAnAverage() {
        RunResult a = new RunFixture().operation("get", RunFixture.millis(1, 1.0))
                .interval(new Interval(10, 10, "measure",
                        Map.of("get", new IntervalOperation(10, 1.0, 1.0, 2.0, 3.0, 4.0, 0, 0, null)), 0, 0))
                .build();
        RunResult b = new RunFixture().operation("get", RunFixture.millis(1, 1.0))
                .interval(new Interval(10, 10, "measure",
                        Map.of("get", new IntervalOperation(10, 1.0, 5.0, 6.0, 7.0, 8.0, 0, 0, null)), 0, 0))
                .build();
        IntervalOperation merged = ResultMerge.merge(List.of(a, b)).intervals().get(0).operations().get("get");
        assertEquals(20, merged.count());
        assertEquals(7.0, merged.p99());
        assertNull(merged.histogram());
    }

    @Test
    void differentWorkloadsAreBadInput() {
        RunResult tpcc = new RunFixture().operation("newOrder", RunFixture.millis(1, 1.0)).build();
        RunResult queue = new RunFixture().workload("queue").operation("write", RunFixture.millis(1, 1.0)).build();
        ResultFormatException e = assertThrows(ResultFormatException.class, () -> ResultMerge.merge(List.of(tpcc, queue)));
        assertTrue(e.getMessage().contains("tpcc") && e.getMessage().contains("queue"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
        assertThrows(ResultFormatException.class, () -> ResultMerge.merge(List.of()));
    }

    @Test
    void runsMadeOneAfterAnotherAreNotMerged() {
        RunResult first = new RunFixture().startedAt("2026-11-22T10:00:00Z", "2026-11-22T10:01:00Z")
                .phase("measure", 0, 60).operation("newOrder", RunFixture.millis(1000, 1.0)).build();
        RunResult second = new RunFixture().startedAt("2026-11-22T10:01:00Z", "2026-11-22T10:02:00Z")
                .phase("measure", 0, 60).operation("newOrder", RunFixture.millis(1000, 1.0)).build();
        ResultFormatException e = assertThrows(ResultFormatException.class,
                () -> ResultMerge.merge(List.of(first, second)));
        assertTrue(e.getMessage().contains("do not all overlap") && e.getMessage().contains("report compare"),
                e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }

    @Test
    void theSameRunGivenTwiceIsNotMerged() {
        RunResult run = new RunFixture().operation("newOrder", RunFixture.millis(1000, 1.0)).build();
        RunResult other = new RunFixture().operation("newOrder", RunFixture.millis(1000, 1.0)).build();
        ResultFormatException twice = assertThrows(ResultFormatException.class,
                () -> ResultMerge.merge(List.of(run, other, run)));
        assertTrue(twice.getMessage().contains("inputs 1 and 3") && twice.getMessage().contains(run.runId()),
                twice.getMessage());
        // Inside a merged input too: the merged result remembers the runs it holds.
        RunResult merged = ResultMerge.merge(List.of(run, other));
        assertEquals(List.of(run.runId(), other.runId()), merged.mergedRunIds());
        assertThrows(ResultFormatException.class, () -> ResultMerge.merge(List.of(merged, other)));
    }

    @Test
    void differentReportingPeriodsAreNotMerged() {
        RunResult a = new RunFixture().parameter("reportEvery", "10s").operation("get", RunFixture.millis(1, 1.0)).build();
        RunResult b = new RunFixture().parameter("reportEvery", "5s").operation("get", RunFixture.millis(1, 1.0)).build();
        ResultFormatException e = assertThrows(ResultFormatException.class, () -> ResultMerge.merge(List.of(a, b)));
        assertTrue(e.getMessage().contains("--report-every"), e.getMessage());
    }

    @Test
    void intervalsAreAlignedByTimeNotByPosition() {
        // B started 10 s after A; both report every 10 s. B's first interval ends with A's second.
        RunFixture a = new RunFixture().startedAt("2026-11-22T10:00:00Z", "2026-11-22T10:01:00Z").phase("measure", 0, 60)
                .operation("get", RunFixture.millis(60, 1.0));
        RunFixture b = new RunFixture().startedAt("2026-11-22T10:00:10Z", "2026-11-22T10:01:10Z").phase("measure", 0, 60)
                .operation("get", RunFixture.millis(60, 2.0));
        for (int i = 1; i <= 6; i++) {
            a.interval(new Interval(10.0 * i, 10, "measure",
                    Map.of("get", RunFixture.intervalOperation(RunFixture.millis(10, 1.0), 10, 0)), 0, 0));
            b.interval(new Interval(10.0 * i, 10, "measure",
                    Map.of("get", RunFixture.intervalOperation(RunFixture.millis(10, 2.0), 10, 0)), 0, 0));
        }
        RunResult merged = ResultMerge.merge(List.of(a.build(), b.build()));
        List<Double> ends = merged.intervals().stream().map(Interval::t).toList();
        assertEquals(List.of(10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0), ends);
        assertEquals(10, merged.intervals().get(0).operations().get("get").count(), "A alone");
        assertEquals(20, merged.intervals().get(1).operations().get("get").count(), "A's second and B's first");
        assertEquals(10, merged.intervals().get(6).operations().get("get").count(), "B alone");
        assertEquals(70.0, merged.measuredSeconds(), 1e-9, "from A's measured start to B's measured end");
    }

    @Test
    void observationsAndGaugesMergeExactly() {
        Histogram e2eA = RunFixture.millis(700, 3.0, 40.0);
        Histogram e2eB = RunFixture.millis(300, 5.0, 900.0);
        RunResult a = new RunFixture().operation("read", RunFixture.millis(10, 1.0)).observation("endToEnd", e2eA)
                .gauge("lag", 10, 0, 50).build();
        RunResult b = new RunFixture().operation("read", RunFixture.millis(10, 1.0)).observation("endToEnd", e2eB)
                .gauge("lag", 5, 1, 7).build();
        RunResult merged = ResultMerge.merge(List.of(a, b));
        Histogram union = e2eA.copy();
        union.add(e2eB);
        assertSameDistribution(union, HistogramCodec.decode(merged.observations().get("endToEnd").histogram()),
                "end to end");
        assertEquals(new dev.gauntlet.core.result.GaugeSummary(15, 1, 57), merged.gauges().get("lag"),
                "gauges of concurrent processes add up (lag over their partitions)");
    }

    @Test
    void aProcessThatStartedLateDoesNotDiluteThroughputWhichMergesByTheSameRuleAsTpmC() {
        // Two processes each did 6,000 New-Orders in 60 s (100/s, tpmC 6,000); B started 15 s after A. Throughput
        // over the 75 s span would read 160/s, 20% low, while tpmC (a sum of rates) reads 12,000: one rule for both.
        RunResult a = new RunFixture().startedAt("2026-11-22T10:00:00Z", "2026-11-22T10:01:00Z").measuredSeconds(60)
                .operation("newOrder", RunFixture.millis(6000, 1.0)).metric("tpmC", 6000).build();
        RunResult b = new RunFixture().startedAt("2026-11-22T10:00:15Z", "2026-11-22T10:01:15Z").measuredSeconds(60)
                .operation("newOrder", RunFixture.millis(6000, 1.0)).metric("tpmC", 6000).build();
        RunResult merged = ResultMerge.merge(List.of(a, b));
        OperationResult newOrders = merged.operation("newOrder").orElseThrow();
        assertEquals(12_000, newOrders.count());
        assertEquals(200.0, newOrders.opsPerSecond(), 1e-9, "100/s + 100/s");
        assertEquals(merged.metrics().get("tpmC") / 60.0, newOrders.opsPerSecond(), 1e-9,
                "throughput and tpmC say the same");
        assertEquals(75.0, merged.measuredSeconds(), 1e-9, "the span the processes measured over");
        assertEquals(200.0, RunTotals.of(merged).opsPerSecond(), 1e-9, "what report.md and compare show of it");
        assertTrue(RunReport.markdown(merged).contains("200.00"), "the report's throughput");
    }

    @Test
    void eachGaugeMergesByTheRuleItDeclared() {
        // Four processes read one server's 1 GiB of tables and its replication lag; each reports the consumer lag of
        // its own partitions. Sizes are one server's (the median, not 4 GiB), lag the largest, own shares summed; in
        // the summaries and in every interval.
        GaugeInfo server = GaugeInfo.level(GaugeInfo.Merge.SERVER);
        GaugeInfo max = GaugeInfo.level(GaugeInfo.Merge.MAX);
        GaugeInfo own = GaugeInfo.level(GaugeInfo.Merge.SUM);
        long gib = 1L << 30;
        List<RunResult> processes = new java.util.ArrayList<>();
        long[] lag = {100, 400, 250, 300};
        for (int i = 0; i < 4; i++) {
            processes.add(new RunFixture().operation("read", RunFixture.millis(10, 1.0))
                    .gauge("tableBytes", gib + i, gib, gib + i, server).gauge("replicationLagBytes", lag[i], 0, lag[i], max)
                    .gauge("lagMessages", 10, 0, 20, own)
                    .interval(new Interval(10.0, 10, "measure", Map.of(), 0, 0, Map.of(),
                            Map.of("tableBytes", gib + i, "replicationLagBytes", lag[i], "lagMessages", 10L), Map.of()))
                    .build());
        }
        RunResult merged = ResultMerge.merge(processes);
        assertEquals(new GaugeSummary(gib + 2, gib, gib + 2, server), merged.gauges().get("tableBytes"),
                "median of 1 GiB + 0..3 bytes: (1 + 2) / 2 rounded");
        assertEquals(new GaugeSummary(400, 0, 400, max), merged.gauges().get("replicationLagBytes"));
        assertEquals(new GaugeSummary(40, 0, 80, own), merged.gauges().get("lagMessages"));
        assertEquals(Map.of("tableBytes", gib + 2, "replicationLagBytes", 400L, "lagMessages", 40L),
                merged.intervals().get(0).gauges());
    }
}

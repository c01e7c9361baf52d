package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Winners and verdicts follow the figures: more throughput wins, lower latency wins, an interval that spans zero is
 * inconclusive (never Equal), a single run per side shows nothing either way, and a metric's declared direction
 * (never its name) says which way is better. The rule itself, case by case: {@link VerdictRuleTest}.
 */
class ComparisonTest {

    /** A run of {@code count} operations in 60 s, every one taking {@code ms} milliseconds (plus a tail). */
    private static RunFixture run(String variant, int count, double ms) {
        Histogram h = RunFixture.histogram();
        h.recordValueWithCount(Math.round(ms * 1_000_000), count - count / 100);
        h.recordValueWithCount(Math.round(ms * 4 * 1_000_000), count / 100);
        return new RunFixture().variant(variant).operation("write", h);
    }

    private static PairComparison pair(RunResult a, RunResult b) {
        return Comparison.compare(List.of(a, b), Comparison.DEFAULT_THRESHOLD_PERCENT).pairs().get(0);
    }

    /** Repeated runs of one variant, one per count. */
    private static RunGroup group(String variant, double ms, int... counts) {
        List<LabelledRun> runs = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            runs.add(LabelledRun.of(run(variant, counts[i], ms).build(), variant + "-" + (i + 1)));
        }
        return RunGroup.of(runs);
    }

    private static PairComparison groups(RunGroup a, RunGroup b) {
        return Comparison.compareGroups(List.of(a, b), Comparison.DEFAULT_THRESHOLD_PERCENT).pairs().get(0);
    }

    @Test
    void oneRunEachNamesNoWinnerAndNoEquality() {
        PairComparison c = pair(run("A", 60_000, 2.0).build(), run("B", 72_000, 2.0).build());
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(1000.0, tp.a(), 1e-9);
        assertEquals(1200.0, tp.b(), 1e-9);
        assertEquals(20.0, tp.changePercent(), 1e-9);
        assertEquals("inconclusive: one run each", c.winner(tp));
        assertEquals("—", tp.confidenceText());
        assertTrue(c.verdict().startsWith("With one run each there is no interval, so nothing is shown either way: "
                + "`B` measured 20.0% higher throughput than `A` (1,200.00 ops/s vs 1,000.00 ops/s)"), c.verdict());
        String md = Comparison.compare(List.of(run("A", 60_000, 2.0).build(), run("B", 72_000, 2.0).build()), 5)
                .markdown();
        assertTrue(md.contains("| inconclusive: one run each |"), md);
        assertTrue(md.contains("Repeat each variant (`--repeat N`"), "the method says how to get confidence\n" + md);
    }

    @Test
    void repeatedRunsNameAWinnerWhenTheIntervalExcludesZero() {
        PairComparison c = groups(group("A", 2.0, 59_000, 60_000, 61_000), group("B", 2.0, 71_000, 72_000, 73_000));
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(1000.0, tp.a(), 1e-9, "a side's throughput is all its operations over all its time");
        assertEquals(1200.0, tp.b(), 1e-9);
        assertEquals("B", c.winner(tp));
        double[] ci = tp.confidenceInterval().orElseThrow();
        // Per-run rates differ by 200 ops/s with a standard deviation of 16.7 per side: Welch gives df = 4,
        // t(0.975, 4) = 2.776, se = sqrt(2 x 16.67^2 / 3) = 13.61, so 200 +- 37.8.
        assertEquals(200 - 2.7764 * 13.608, ci[0], 0.05);
        assertEquals(200 + 2.7764 * 13.608, ci[1], 0.05);
        assertTrue(c.verdict().startsWith("`B` is 20.0% faster in throughput than `A` (1,200.00 ops/s vs "
                + "1,000.00 ops/s, 95% CI +16.2%..+23.8%)"), c.verdict());
        String md = Comparison.compareGroups(List.of(group("A", 2.0, 59_000, 60_000, 61_000),
                group("B", 2.0, 71_000, 72_000, 73_000)), 5).markdown();
        assertTrue(md.contains("| Metric | A (3 runs) | B (3 runs) | Change | 95% CI") || md.lines().anyMatch(l ->
                l.replaceAll("\\s+", " ").startsWith("| Metric | A (3 runs) | B (3 runs) | Change | 95% CI |")), md);
        assertTrue(md.contains("Welch's t interval"), md);
    }

    @Test
    void repeatedRunsAreInconclusiveWhenTheIntervalSpansZero() {
        // B's mean is 10% higher, beyond the threshold, but the runs scatter far more than that.
        PairComparison c = groups(group("A", 2.0, 40_000, 60_000, 80_000), group("B", 2.0, 46_000, 66_000, 86_000));
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(10.0, tp.changePercent(), 1e-9);
        assertEquals("-65.6%..+85.6%", tp.confidenceText());
        String runs = tp.runsToDecide(5).orElseThrow().text();
        assertTrue(runs.matches("~\\d+ runs per side"), runs);
        assertEquals("inconclusive, " + runs, c.winner(tp));
        assertTrue(c.verdict().startsWith("Throughput is inconclusive (`B` 10.0% higher than `A`: 1,100.00 ops/s vs "
                + "1,000.00 ops/s, 95% CI -65.6%..+85.6%, an interval that spans zero and reaches beyond ±5%; " + runs
                + " would decide it at the spread observed), with equal p99 latency (+0.0%, within ±5%)."),
                c.verdict());
        assertTrue(c.verdict().contains("Of 8 whole-run figures, `B` is better on 0, worse on 0 and equal on 7; "
                + "1 inconclusive."), c.verdict());
    }

    @Test
    void changesWhoseIntervalLiesWithinTheThresholdAreEqual() {
        // One run each: a change below the threshold is not shown to be small, there being no interval.
        PairComparison single = pair(run("A", 60_000, 2.0).build(), run("B", 61_800, 2.0).build());
        Delta one = single.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(3.0, one.changePercent(), 1e-9);
        assertEquals("inconclusive: one run each", single.winner(one));
        // A small, consistent difference: its narrow interval lies within ±5%, so it is Equal.
        PairComparison repeated = groups(group("A", 2.0, 60_000, 60_000, 60_001), group("B", 2.0, 61_800, 61_800, 61_801));
        assertEquals(PairComparison.EQUAL, repeated.winner(repeated.delta(PairComparison.THROUGHPUT).orElseThrow()));
        assertTrue(repeated.verdict().startsWith("Throughput is equal (`B` 1,030.01 ops/s vs `A` 1,000.01 ops/s, "
                + "+3.0%, 95% CI +3.0%..+3.0%, within ±5%)"), repeated.verdict());
        assertTrue(repeated.verdict().contains("Latency (all operations): equal for mean "), repeated.verdict());
        PairComparison strict = Comparison.compareGroups(List.of(group("A", 2.0, 60_000, 60_000, 60_001),
                group("B", 2.0, 61_800, 61_800, 61_801)), 2.0).pairs().get(0);
        assertEquals("B", strict.winner(strict.delta(PairComparison.THROUGHPUT).orElseThrow()));
    }

    @Test
    void lowerLatencyWins() {
        PairComparison c = groups(group("A", 10.0, 60_000, 60_000), group("B", 7.0, 60_000, 60_000));
        for (String metric : List.of(PairComparison.MEAN, PairComparison.P50, PairComparison.P95, PairComparison.P99,
                PairComparison.MAX)) {
            Delta d = c.delta(metric).orElseThrow();
            assertTrue(d.b() < d.a(), metric);
            assertEquals("B", c.winner(d), metric);
        }
        assertTrue(c.verdict().contains("with 30.0% lower p99 latency ("), c.verdict());
        assertTrue(c.verdict().contains("p99 30.0% lower in `B`"), c.verdict());
        assertTrue(c.verdict().contains("Of 8 whole-run figures, `B` is better on 5, worse on 0 and equal on 3."),
                c.verdict());
    }

    @Test
    void aMetricsDeclaredDirectionDecidesItsWinner() {
        // Each of these got the wrong winner when direction was guessed from the name.
        List<String> lowerIsBetter = List.of("microsPerOp", "writeStalls", "jniOverheadPercent", "walBytesPerPut");
        List<LabelledRun> a = new ArrayList<>();
        List<LabelledRun> b = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RunFixture fa = run("A", 60_000, 2.0);
            RunFixture fb = run("B", 60_000, 2.0);
            for (String m : lowerIsBetter) {
                fa.metric(m, 100 + i, MetricInfo.lower());
                fb.metric(m, 50 + i, MetricInfo.lower());
            }
            fa.metric("ci95OpsPerSecond", 100 + i, MetricInfo.neither());
            fb.metric("ci95OpsPerSecond", 500 + i, MetricInfo.neither());
            a.add(LabelledRun.of(fa.build(), "a" + i));
            b.add(LabelledRun.of(fb.build(), "b" + i));
        }
        PairComparison c = groups(RunGroup.of(a), RunGroup.of(b));
        for (String m : lowerIsBetter) {
            assertEquals("B", c.winner(c.delta(m).orElseThrow()), m + " is lower in B, and lower is better");
        }
        assertEquals("—", c.winner(c.delta("ci95OpsPerSecond").orElseThrow()), "a confidence interval is not judged");
        assertTrue(c.verdict().contains("ci95OpsPerSecond +396.0% (not judged)"), c.verdict());
    }

    @Test
    void fewerErrorsWinAndAreNamedInTheVerdict() {
        RunResult a = run("A", 60_000, 2.0).build();
        RunResult b = run("B", 60_000, 2.0).error("retryable", "40001", 5, "could not serialize").build();
        PairComparison c = pair(a, b);
        Delta errors = c.delta(PairComparison.ERRORS).orElseThrow();
        assertEquals("inconclusive: one run each", c.winner(errors));
        assertEquals("▲ from 0", errors.changeText());
        assertTrue(c.verdict().contains("Errors: 0 in `A`, 5 in `B` (inconclusive: one run each)."), c.verdict());
        assertTrue(pair(a, a).verdict().contains("Neither side had errors."));
        RunResult b2 = run("B", 60_000, 2.0).error("retryable", "40001", 6, "could not serialize").build();
        PairComparison repeated = Comparison.compareGroups(List.of(
                RunGroup.of(List.of(LabelledRun.of(a, "a1"), LabelledRun.of(a, "a2"), LabelledRun.of(a, "a3"))),
                RunGroup.of(List.of(LabelledRun.of(b, "b1"), LabelledRun.of(b2, "b2"), LabelledRun.of(b, "b3")))), 5)
                .pairs().get(0);
        assertEquals("A", repeated.winner(repeated.delta(PairComparison.ERRORS).orElseThrow()));
        assertTrue(repeated.verdict().contains("Errors per run: 0 in `A`, 5.33 in `B` (`A` fewer)."),
                repeated.verdict());
    }

    @Test
    void failedChecksLoseAndWarnInTheVerdict() {
        RunResult a = run("A", 60_000, 2.0).check(Check.pass("w_ytd", "")).build();
        RunResult b = run("B", 90_000, 2.0).check(Check.fail("w_ytd", "off by 10")).build();
        PairComparison c = pair(a, b);
        assertEquals("A", c.checksWinner());
        assertTrue(c.verdict().contains("Checks FAILED in `B`"), c.verdict());
        String md = Comparison.compare(List.of(a, b), 5).markdown();
        assertTrue(md.contains("| Checks "), md);
        assertTrue(md.contains("PASS (1 of 1)") && md.contains("FAIL (1 of 1)"), md);
    }

    @Test
    void workloadMetricsPresentInBothAreCompared() {
        RunResult a = run("A", 60_000, 2.0).metric("tpmC", 1000).metric("efficiencyPercent", 90)
                .metric("onlyInA", 1).build();
        RunResult b = run("B", 60_000, 2.0).metric("tpmC", 1200).metric("efficiencyPercent", 91).build();
        PairComparison c = pair(a, b);
        assertEquals("inconclusive: one run each", c.winner(c.delta("tpmC").orElseThrow()));
        assertEquals("inconclusive: one run each", c.winner(c.delta("efficiencyPercent").orElseThrow()),
                "one run each shows no equality either");
        assertTrue(c.delta("onlyInA").isEmpty());
        assertTrue(c.verdict().contains("Workload metrics: tpmC +20.0% (inconclusive: one run each), "
                + "efficiencyPercent +1.1% (inconclusive: one run each)."), c.verdict());
    }

    @Test
    void markdownHasTheSeedShapeWithVariantsAsHeaders() {
        RunResult a = run("write_buffering=on", 60_000, 2.0).parameter("seed", 1L).build();
        RunResult b = run("write_buffering=off", 66_000, 1.0).parameter("seed", 2L).build();
        String md = Comparison.compare(List.of(a, b), 5).markdown();
        assertTrue(md.lines().anyMatch(l -> l.replaceAll("\\s+", " ")
                .equals("| Metric | write_buffering=on | write_buffering=off | Change | 95% CI | Winner |")), md);
        assertTrue(md.contains("▲ +10.0%"), md);
        assertTrue(md.contains("nothing is shown either way: `write_buffering=off` measured 10.0% higher throughput"),
                md);
        assertFalse(md.contains("Not like for like"), "a different seed is not a different condition\n" + md);
    }

    @Test
    void warnsWhenRunsDifferInWorkloadClientsOrParameters() {
        RunResult a = run("A", 60_000, 2.0).clients(8).parameter("warehouses", 4).build();
        RunResult b = run("B", 60_000, 2.0).clients(16).parameter("warehouses", 8).workload("tpcc-lite").build();
        PairComparison c = pair(a, b);
        String warnings = String.join("; ", c.differences());
        assertTrue(warnings.contains("workload (tpcc vs tpcc-lite)"), warnings);
        assertTrue(warnings.contains("clients (8 vs 16)"), warnings);
        assertTrue(warnings.contains("`warehouses` (4 vs 8)"), warnings);
        assertTrue(Comparison.compare(List.of(a, b), 5).markdown().contains("> **Not like for like:**"));
    }

    @Test
    void whatAnExperimentVariesOnPurposeIsNotAnUnlikeCondition() {
        RunResult a = run("on", 60_000, 2.0).parameter("setting synchronous_commit", "on")
                .parameter(PairComparison.VARIABLES, "variant, setting synchronous_commit").build();
        RunResult b = run("off", 60_000, 2.0).parameter("setting synchronous_commit", "off")
                .parameter(PairComparison.VARIABLES, "variant, setting synchronous_commit").build();
        assertTrue(pair(a, b).differences().isEmpty(), String.join("; ", pair(a, b).differences()));
        RunResult c = run("off", 60_000, 2.0).parameter("setting synchronous_commit", "off").build();
        RunResult d = run("on", 60_000, 2.0).parameter("setting synchronous_commit", "on").build();
        assertTrue(String.join("; ", pair(d, c).differences()).contains("`setting synchronous_commit` (on vs off)"),
                "outside an experiment, a differing setting is a real difference");
    }

    @Test
    void aSaturatedOpenLoopSideIsNamedInTheVerdict() {
        RunResult a = run("A", 60_000, 2.0).parameter("loop", "open").parameter("rate", 1000.0).build();
        RunResult b = run("B", 30_000, 2.0).parameter("loop", "open").parameter("rate", 1000.0).build();
        PairComparison c = pair(a, b);
        assertEquals(List.of("B"), List.copyOf(c.saturated().keySet()), "A kept 1,000 ops/s; B achieved 500");
        assertTrue(c.verdict().startsWith("`B` was saturated (achieved 500.00 of 1,000.00 ops/s asked"), c.verdict());
        assertTrue(Comparison.compare(List.of(a, b), 5).markdown().contains("> **Saturated:** `B`"));
        assertTrue(pair(a, a).saturated().isEmpty());
    }

    @Test
    void perOperationTablesWhenRunsHaveSeveralOperations() {
        RunResult a = new RunFixture().variant("A").operation("newOrder", RunFixture.millis(1000, 10.0))
                .operation("payment", RunFixture.millis(1000, 2.0)).build();
        RunResult b = new RunFixture().variant("B").operation("newOrder", RunFixture.millis(1000, 5.0))
                .operation("payment", RunFixture.millis(1000, 2.0)).build();
        PairComparison c = groups(RunGroup.of(List.of(LabelledRun.of(a, "a1"), LabelledRun.of(a, "a2"))),
                RunGroup.of(List.of(LabelledRun.of(b, "b1"), LabelledRun.of(b, "b2"))));
        assertEquals("B", c.winner(c.delta("newOrder", PairComparison.P99).orElseThrow()));
        assertEquals(PairComparison.EQUAL, c.winner(c.delta("payment", PairComparison.P99).orElseThrow()));
        assertTrue(c.verdict().contains("Per operation, p99 differs for newOrder -50.0%; equal for payment 0.0%."),
                c.verdict());
        // The all-operations p99 comes from the summed histogram: half the samples at 10 ms, half at 2 ms in A.
        assertEquals(10.0, c.delta(PairComparison.P99).orElseThrow().a(), 0.01);
        assertTrue(Comparison.compare(List.of(a, b), 5).markdown().contains("### newOrder"));
    }

    @Test
    void moreThanTwoRunsAreEachComparedWithTheFirst() {
        RunResult a = run("A", 60_000, 2.0).build();
        RunResult b = run("B", 66_000, 2.0).build();
        RunResult c = run("C", 54_000, 2.0).build();
        Comparison cmp = Comparison.compare(List.of(a, b, c), 5);
        assertEquals(2, cmp.pairs().size());
        assertEquals("A", cmp.pairs().get(1).baseline().label());
        assertEquals("C", cmp.pairs().get(1).other().label());
        String md = cmp.markdown();
        assertTrue(md.contains("## `A` vs `B`") && md.contains("## `A` vs `C`"), md);
    }

    @Test
    void labelsFallBackAndStayUnique() {
        RunResult noVariant = run(null, 60_000, 2.0).build();
        assertEquals("tpcc 2026-11-22T10:00:00Z", LabelledRun.of(noVariant, null).label());
        assertEquals("run-7", LabelledRun.of(noVariant, "run-7").label());
        RunResult same = run("default", 60_000, 2.0).build();
        List<LabelledRun> labelled = LabelledRun.distinct(
                List.of(LabelledRun.of(same, "dir-a"), LabelledRun.of(same, "dir-b"), LabelledRun.of(same, null)));
        assertEquals(List.of("default (dir-a)", "default (dir-b)", "default #3"),
                labelled.stream().map(LabelledRun::label).toList());
        assertThrows(IllegalArgumentException.class, () -> Comparison.compare(List.of(same), 5));
    }
}

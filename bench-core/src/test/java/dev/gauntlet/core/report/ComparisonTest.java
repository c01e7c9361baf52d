package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Winners and verdicts follow the figures: more throughput wins, lower latency wins, noise is Equal. */
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

    @Test
    void fasterRunWinsThroughput() {
        PairComparison c = pair(run("A", 60_000, 2.0).build(), run("B", 72_000, 2.0).build());
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(1000.0, tp.a(), 1e-9);
        assertEquals(1200.0, tp.b(), 1e-9);
        assertEquals(20.0, tp.changePercent(), 1e-9);
        assertEquals("B", c.winner(tp));
        assertTrue(c.verdict().startsWith("`B` is 20.0% faster in throughput than `A` (1,200.00 ops/s vs "
                + "1,000.00 ops/s)"), c.verdict());
        PairComparison reverse = pair(run("A", 72_000, 2.0).build(), run("B", 60_000, 2.0).build());
        assertEquals("A", reverse.winner(reverse.delta(PairComparison.THROUGHPUT).orElseThrow()));
        assertTrue(reverse.verdict().startsWith("`B` is 16.7% slower"), reverse.verdict());
    }

    @Test
    void changesWithinTheThresholdAreEqual() {
        RunResult a = run("A", 60_000, 2.0).build();
        RunResult b = run("B", 61_800, 2.0).build();
        PairComparison c = pair(a, b);
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(3.0, tp.changePercent(), 1e-9);
        assertEquals(PairComparison.EQUAL, c.winner(tp));
        assertTrue(c.verdict().startsWith("Throughput is equal within the 5% noise threshold"), c.verdict());
        assertTrue(c.verdict().contains("Latency (all operations): no figure"), c.verdict());

        PairComparison strict = Comparison.compare(List.of(a, b), 2.0).pairs().get(0);
        assertEquals("B", strict.winner(strict.delta(PairComparison.THROUGHPUT).orElseThrow()));
    }

    @Test
    void lowerLatencyWins() {
        PairComparison c = pair(run("A", 60_000, 10.0).build(), run("B", 60_000, 7.0).build());
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
    void fewerErrorsWinAndAreNamedInTheVerdict() {
        RunResult a = run("A", 60_000, 2.0).build();
        RunResult b = run("B", 60_000, 2.0).error("retryable", "40001", 5, "could not serialize").build();
        PairComparison c = pair(a, b);
        Delta errors = c.delta(PairComparison.ERRORS).orElseThrow();
        assertEquals("A", c.winner(errors));
        assertEquals("▲ from 0", errors.changeText());
        assertTrue(c.verdict().contains("Errors: 0 in `A`, 5 in `B` (`A` fewer)."), c.verdict());
        assertTrue(pair(a, a).verdict().contains("Neither run had errors."));
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
        assertEquals("B", c.winner(c.delta("tpmC").orElseThrow()));
        assertEquals(PairComparison.EQUAL, c.winner(c.delta("efficiencyPercent").orElseThrow()));
        assertTrue(c.delta("onlyInA").isEmpty());
        assertTrue(c.verdict().contains("Workload metrics: efficiencyPercent +1.1% (equal), tpmC +20.0% (`B` better)."),
                c.verdict());
        assertEquals(Delta.Direction.LOWER_IS_BETTER, Delta.Direction.ofMetric("endToEndP99Ms"));
        assertEquals(Delta.Direction.LOWER_IS_BETTER, Delta.Direction.ofMetric("consumerLag"));
        assertEquals(Delta.Direction.HIGHER_IS_BETTER, Delta.Direction.ofMetric("tpmC"));
    }

    @Test
    void markdownHasTheSeedShapeWithVariantsAsHeaders() {
        RunResult a = run("write_buffering=on", 60_000, 2.0).build();
        RunResult b = run("write_buffering=off", 66_000, 1.0).build();
        String md = Comparison.compare(List.of(a, b), 5).markdown();
        assertTrue(md.lines().anyMatch(l -> l.replaceAll("\\s+", " ")
                .equals("| Metric | write_buffering=on | write_buffering=off | Change | Winner |")), md);
        assertTrue(md.contains("▲ +10.0%"), md);
        assertTrue(md.contains("**Verdict:** `write_buffering=off` is 10.0% faster"), md);
        assertFalse(md.contains("Not like for like"), "same workload, clients and parameters: no warning\n" + md);
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
    void perOperationTablesWhenRunsHaveSeveralOperations() {
        RunResult a = new RunFixture().variant("A").operation("newOrder", RunFixture.millis(1000, 10.0))
                .operation("payment", RunFixture.millis(1000, 2.0)).build();
        RunResult b = new RunFixture().variant("B").operation("newOrder", RunFixture.millis(1000, 5.0))
                .operation("payment", RunFixture.millis(1000, 2.0)).build();
        PairComparison c = pair(a, b);
        assertEquals("B", c.winner(c.delta("newOrder", PairComparison.P99).orElseThrow()));
        assertEquals(PairComparison.EQUAL, c.winner(c.delta("payment", PairComparison.P99).orElseThrow()));
        assertTrue(c.verdict().contains("Per operation, p99 moved beyond the threshold for newOrder -50.0%."),
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

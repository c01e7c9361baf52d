package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.report.Delta.Outcome;
import dev.gauntlet.core.report.Delta.Unit;
import dev.gauntlet.core.result.MetricInfo.Better;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * The one rule every comparison table, verdict and tally follows, at a 5% threshold: a winner when the 95% interval
 * excludes zero and the change passes the threshold; Equal only when the whole interval lies within ±5%; a real but
 * small difference when the interval excludes zero around a change below 5%; otherwise inconclusive, with the runs
 * per side that would decide it. Equality is never read from an interval that merely spans zero.
 */
class VerdictRuleTest {

    private static final double THRESHOLD = 5.0;

    /**
     * Throughput of three runs a side around 100 ops/s whose 95% interval of the change is {@code low..high}
     * percent: the sides' runs are m-s, m, m+s, so the difference is (low+high)/2 and the half-width
     * t(0.975, 4) × s × √(2/3).
     */
    private static Delta interval(Better better, double lowPercent, double highPercent) {
        double d = (lowPercent + highPercent) / 2;
        double t = TDistribution.of(4).inverseCumulativeProbability(0.975);
        double s = (highPercent - lowPercent) / 2 / (t * Math.sqrt(2.0 / 3));
        return new Delta("Throughput", Unit.OPS_PER_SECOND, better, 100, 100 + d,
                new double[] {100 - s, 100, 100 + s}, new double[] {100 + d - s, 100 + d, 100 + d + s});
    }

    private static Delta interval(double lowPercent, double highPercent) {
        return interval(Better.HIGHER, lowPercent, highPercent);
    }

    /** reports/tpcc/synchronous-commit: each run's throughput (ops/s) from its report.md, on then off. */
    private static Delta synchronousCommitThroughput() {
        return new Delta("Throughput", Unit.OPS_PER_SECOND, Better.HIGHER, 1017.09, 1192.54,
                new double[] {1037.52, 1006.11, 1007.64}, new double[] {1150.64, 1130.41, 1296.57});
    }

    @Test
    void anIntervalThatSpansZeroIsInconclusiveNotEqual() {
        Delta tp = synchronousCommitThroughput();
        assertEquals(17.2, tp.changePercent(), 0.1, "the comparison's +17.2%, from each run's rounded figure");
        assertEquals("-3.8%..+38.3%", tp.confidenceText());
        assertEquals(Outcome.INCONCLUSIVE, tp.outcome(THRESHOLD), "an interval spanning zero shows no equality");
        // s_on² = 313.6, s_off² = 8,218.9: with 4 runs a side, df = 3.2, t = 3.09, h = 3.09 × √(8,532.5 / 4) = 143
        // ops/s, less than the 175.45 ops/s observed, so the interval would exclude zero; with 3 it is 218.
        assertEquals(Optional.of(new RunsToDecide.Runs(4)), tp.runsToDecide(THRESHOLD));
        PairComparison pair = pairOf(1, 1);
        assertEquals("inconclusive, ~4 runs per side", pair.winner(tp));
    }

    @Test
    void anIntervalWithinTheThresholdIsEqual() {
        Delta d = interval(-1, 2);
        assertEquals("-1.0%..+2.0%", d.confidenceText());
        assertEquals(Outcome.EQUAL, d.outcome(THRESHOLD));
        // Narrow and clear of zero, but inside ±5%: the difference is real and too small to matter.
        assertEquals(Outcome.EQUAL, interval(1, 3).outcome(THRESHOLD));
        // Equal ends at the threshold: a hair inside it is Equal, a hair outside is not. (Bounds built to lie at
        // exactly ±5% come out a few units in the last place to either side, so the tie itself tests nothing.)
        assertEquals(Outcome.EQUAL, interval(-4.999_999, 4.999_999).outcome(THRESHOLD));
        assertEquals(Outcome.INCONCLUSIVE, interval(-5.000_001, 5.000_001).outcome(THRESHOLD));
    }

    @Test
    void anIntervalSpanningZeroAndReachingBeyondTheThresholdIsInconclusive() {
        Delta d = interval(-3, 12);
        assertEquals("-3.0%..+12.0%", d.confidenceText());
        assertEquals(4.5, d.changePercent(), 1e-9);
        assertEquals(Outcome.INCONCLUSIVE, d.outcome(THRESHOLD));
        assertTrue(d.runsToDecide(THRESHOLD).orElseThrow() instanceof RunsToDecide.Runs, "decidable");
    }

    @Test
    void anIntervalClearOfZeroWithAChangeBeyondTheThresholdNamesTheWinner() {
        assertEquals("+8.0%..+20.0%", interval(8, 20).confidenceText());
        assertEquals(Outcome.OTHER_BETTER, interval(8, 20).outcome(THRESHOLD));
        assertEquals(Outcome.BASELINE_BETTER, interval(Better.LOWER, 8, 20).outcome(THRESHOLD),
                "higher is worse when lower is better");
        assertEquals(Outcome.BASELINE_BETTER, interval(-20, -8).outcome(THRESHOLD));
        // The interval need not clear the threshold, only zero: the change itself passes it.
        assertEquals(Outcome.OTHER_BETTER, interval(1, 13).outcome(THRESHOLD));
    }

    @Test
    void aRealChangeBelowTheThresholdIsNeitherAWinnerNorEqual() {
        Delta d = interval(1, 8);
        assertEquals(4.5, d.changePercent(), 1e-9);
        assertEquals(Outcome.BELOW_THRESHOLD, d.outcome(THRESHOLD));
        assertEquals("real, below 5%", pairOf(3, 3).winner(d));
        // The same through a comparison: runs of 1,000 +- 10 ops/s against 1,040 +- 10.
        PairComparison c = Comparison.compareGroups(List.of(group("A", 30_000, 30_300, 29_700),
                group("B", 31_200, 31_500, 30_900)), THRESHOLD).pairs().get(0);
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals("+1.7%..+6.3%", tp.confidenceText());
        assertEquals("real, below 5%", c.winner(tp));
        assertTrue(c.verdict().startsWith("`B` measured 4.0% higher throughput than `A` (1,040.00 ops/s vs 1,000.00 "
                + "ops/s, 95% CI +1.7%..+6.3%; a real difference, but below the 5% threshold)"), c.verdict());
        assertTrue(c.verdict().contains("; 1 differs by less than the 5% threshold."), c.verdict());
    }

    @Test
    void oneRunPerSideShowsNothingEitherWay() {
        for (double b : new double[] {100, 103, 120}) {
            Delta d = new Delta("Throughput", Unit.OPS_PER_SECOND, Better.HIGHER, 100, b, null, null);
            assertEquals(Outcome.NO_INTERVAL, d.outcome(THRESHOLD), "change " + d.changePercent());
            assertTrue(d.runsToDecide(THRESHOLD).isEmpty(), "no spread, so no number of runs");
            assertEquals("inconclusive: one run each", pairOf(1, 1).winner(d));
        }
        Delta oneAgainstThree = new Delta("Throughput", Unit.OPS_PER_SECOND, Better.HIGHER, 100, 120,
                new double[] {100}, new double[] {119, 120, 121});
        assertEquals(Outcome.NO_INTERVAL, oneAgainstThree.outcome(THRESHOLD));
        assertEquals("inconclusive: one run in `A`", pairOf(1, 3).winner(oneAgainstThree));
    }

    @Test
    void runsPerSideAreTheFewestWhoseIntervalWouldDecide() {
        // -3..+12: the change (+4.5%) is below 5%, so only Equal can decide it: 4.5 + h(n) <= 5 with the spread seen.
        Delta d = interval(-3, 12);
        int n = perSide(d);
        WelchInterval i = WelchInterval.of(d.samplesA(), d.samplesB()).orElseThrow();
        assertTrue(4.5 + i.halfWidth(n) <= 5.0 + 1e-9, "n = " + n + " decides");
        assertFalse(4.5 + i.halfWidth(n - 1) <= 5.0, "n - 1 does not");
        // s² = 10.95 a side, so h(n) ≈ 1.97 × √(21.9 / n) <= 0.5 needs n ≈ 340.
        assertTrue(n > 300 && n < 380, "n = " + n);
        // A change that passes the threshold is decided once the interval excludes zero (h < |d|); one below it
        // only once the interval fits within ±5% (|d| + h <= 5), which takes more runs at the same spread.
        assertTrue(perSide(interval(-10, 20)) < perSide(interval(-12.5, 17.5)));
        // The projection is h(n) with n runs on each side: with as many runs as there are, the interval is the same.
        assertEquals(i.halfWidth(), i.halfWidth(3), 1e-9);
    }

    @Test
    void aSpreadThatNoReasonableNumberOfRunsWouldNarrowEnoughSaysSo() {
        // An observed change of 4.99% with an interval of ±60% would need far more than 1,000 runs a side.
        Delta d = interval(4.99 - 60, 4.99 + 60);
        assertEquals(Outcome.INCONCLUSIVE, d.outcome(THRESHOLD));
        assertEquals(Optional.of(new RunsToDecide.MoreThanLimit()), d.runsToDecide(THRESHOLD));
        assertEquals("inconclusive, more than 1,000 runs per side", pairOf(3, 3).winner(d));
    }

    @Test
    void aChangeBelowTheThresholdWhoseRunsDifferByMoreIsNeverDecidedByMoreRuns() {
        // The pooled figure moved -3% (below 5%, so no winner), the runs' own values +9% (beyond 5%, so no Equal):
        // as a pooled max latency and the mean of the runs' maxima can.
        double s = 10;
        Delta max = new Delta("Max latency", Unit.MILLISECONDS, Better.LOWER, 100, 97,
                new double[] {100 - s, 100, 100 + s}, new double[] {109 - s, 109, 109 + s});
        assertEquals(Outcome.INCONCLUSIVE, max.outcome(THRESHOLD));
        assertEquals(Optional.of(new RunsToDecide.Never()), max.runsToDecide(THRESHOLD));
        assertEquals("inconclusive, more runs alone would not decide it", pairOf(3, 3).winner(max));
    }

    private static int perSide(Delta d) {
        return ((RunsToDecide.Runs) d.runsToDecide(THRESHOLD).orElseThrow()).perSide();
    }

    @Test
    void everyPlaceThatJudgesUsesTheSameRule() {
        // Three runs a side; throughput +10% with an interval far wider than that. Latency identical in every run.
        PairComparison c = Comparison.compareGroups(List.of(group("A", 40_000, 60_000, 80_000),
                group("B", 46_000, 66_000, 86_000)), THRESHOLD).pairs().get(0);
        Delta tp = c.delta(PairComparison.THROUGHPUT).orElseThrow();
        assertEquals(Outcome.INCONCLUSIVE, tp.outcome(THRESHOLD));
        String md = Comparison.compareGroups(List.of(group("A", 40_000, 60_000, 80_000),
                group("B", 46_000, 66_000, 86_000)), THRESHOLD).markdown();
        String runs = c.runsToDecide(tp);
        String whole = md.substring(0, md.indexOf("### write"));
        String perOperation = md.substring(md.indexOf("### write"), md.indexOf("### read"));
        for (String table : List.of(whole, perOperation)) {
            assertTrue(table.lines().anyMatch(l -> l.startsWith("| Throughput ") && l.contains("| inconclusive, ")),
                    table);
            assertFalse(table.lines().anyMatch(l -> l.startsWith("| Throughput ") && l.contains("Equal")), table);
        }
        assertTrue(whole.contains("| inconclusive, " + runs), whole);
        assertTrue(c.verdict().startsWith("Throughput is inconclusive (`B` 10.0% higher than `A`"), c.verdict());
        assertTrue(c.verdict().contains("Latency (all operations): equal for mean unchanged (1.500 ms vs 1.500 ms)"),
                c.verdict());
        assertFalse(c.verdict().contains("Throughput is equal"), c.verdict());
        assertTrue(md.contains("Equal only when its whole interval lies within ±5%"),
                "the method says the rule\n" + md);
        assertTrue(md.contains("t(0.975, df) × √((s_A² + s_B²)/n)"), "and how runs per side are counted\n" + md);
    }

    /** A pair of sides A and B with the given numbers of runs, only for their labels and sizes. */
    private static PairComparison pairOf(int runsA, int runsB) {
        return Comparison.compareGroups(List.of(sized("A", runsA), sized("B", runsB)), THRESHOLD).pairs().get(0);
    }

    private static RunGroup sized(String variant, int runs) {
        int[] counts = new int[runs];
        java.util.Arrays.fill(counts, 60_000);
        return group(variant, counts);
    }

    /** Runs of two operations each, so the comparison has per-operation tables too. */
    private static RunGroup group(String variant, int... counts) {
        List<LabelledRun> runs = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            runs.add(LabelledRun.of(new RunFixture().variant(variant)
                    .operation("write", RunFixture.millis(counts[i], 2.0))
                    .operation("read", RunFixture.millis(counts[i], 1.0)).build(), variant + "-" + (i + 1)));
        }
        return RunGroup.of(runs);
    }
}

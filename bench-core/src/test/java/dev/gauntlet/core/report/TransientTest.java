package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.Summary;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A start-up transient is found where the first intervals are unlike the rest, with MSER-5 on long runs, never on a
 * steady run's noise, and the figures without it are shown beside the whole run's.
 */
class TransientTest {

    /** A run of {@code n} intervals of {@code seconds}; the first {@code slow} have a mean of {@code slowMs}. */
    private static RunResult run(int n, double seconds, int slow, double slowMs, double steadyMs, long seed,
                                 String warmupPhase) {
        Random noise = new Random(seed);
        RunFixture f = new RunFixture();
        Histogram total = RunFixture.histogram();
        for (int i = 0; i < n; i++) {
            Histogram h = RunFixture.histogram();
            double mean = i < slow ? slowMs : steadyMs;
            for (int k = 0; k < 200; k++) {
                h.recordValue(Math.round(Math.max(0.1, mean * (1 + 0.15 * noise.nextGaussian())) * 1_000_000));
            }
            total.add(h);
            Histogram e2e = RunFixture.histogram();
            e2e.add(h);
            f.interval(new Interval(seconds * (i + 1), seconds, warmupPhase != null && i == 0 ? warmupPhase : "measure",
                    Map.of("publish", RunFixture.intervalOperation(h, seconds, 0)), 0, 0,
                    Map.of("endToEnd", Timing.of(e2e)), Map.of()));
        }
        if (warmupPhase != null) {
            f.phase(warmupPhase, 0, seconds).phase("measure", seconds, seconds * n);
        }
        return f.operation("publish", total).observation("endToEnd", total).build();
    }

    @Test
    void aSlowFirstIntervalIsFoundAndTheRestIsShownBesideTheWholeRun() {
        RunResult r = run(12, 10, 1, 700, 15, 1, null);
        List<Transient> found = Transient.of(r);
        assertEquals(List.of("publish", "endToEnd"), found.stream().map(Transient::timing).toList(),
                "an operation and an observation alike");
        Transient t = found.get(0);
        assertEquals(1, t.intervals());
        assertEquals(12, t.of());
        assertEquals(10.0, t.seconds());
        assertEquals("MSER", t.rule());
        assertTrue(t.steady().p99() < 30, "without the first interval p99 is the steady state's: " + t);
        assertTrue(t.whole().p99() > 500, "the whole run keeps what was measured: " + t);
        String summary = Summary.of(r);
        assertTrue(summary.contains("transient: publish's first 10.0 s (1 of 12 intervals) are unlike the rest (MSER); "
                + "without them p50 "), summary);
        assertTrue(RunReport.markdown(r, java.util.Set.of()).contains("### Start-up transient"));
    }

    /** The figure a queue user reads first: end to end, tail first, with its transient beside it. */
    @Test
    void theSummaryPrintsObservedLatenciesTailFirstWithTheirTransient() {
        RunResult r = run(12, 10, 1, 700, 15, 1, null);
        String summary = Summary.of(r);
        dev.gauntlet.core.result.LatencySummary e2e = r.observations().get("endToEnd").latencyMs();
        String line = String.format(java.util.Locale.ROOT,
                "endToEnd (observed, ms): p99 %.1f  p95 %.1f  p50 %.1f  max %.1f  over %,d", e2e.p99(), e2e.p95(),
                e2e.p50(), e2e.max(), r.observations().get("endToEnd").count());
        assertTrue(summary.contains(line + "\n"), line + " in:\n" + summary);
        assertTrue(summary.indexOf(line) < summary.indexOf("transient: endToEnd's first"), summary);
        assertTrue(summary.indexOf(line) > summary.indexOf(" publish\n"), "after the throughput table: " + summary);
    }

    @Test
    void onLongRunsBatchesOfFiveAreUsed() {
        Transient t = Transient.of(run(120, 1, 10, 400, 12, 3, null)).get(0);
        assertEquals("MSER-5", t.rule());
        // Whole batches of five: the ten slow intervals (MSER cut a third, steady batch here: given back).
        assertEquals(10, t.intervals(), t.toString());
        assertTrue(t.steady().p99() < 20, "the slow start is all cut: " + t);
    }

    @Test
    void aSteadyRunHasNoTransient() {
        int found = 0;
        for (long seed = 1; seed <= 100; seed++) {
            found += Transient.of(run(12, 10, 0, 15, 15, seed, null)).isEmpty() ? 0 : 1;
            found += Transient.of(run(120, 1, 0, 15, 15, seed, null)).isEmpty() ? 0 : 1;
        }
        assertEquals(0, found, "noise at the start of a steady run is not a transient (200 runs)");
        String summary = Summary.of(run(12, 10, 0, 15, 15, 7, null));
        assertTrue(!summary.contains("transient"), summary);
        assertTrue(!RunReport.markdown(run(12, 10, 0, 15, 15, 7, null), java.util.Set.of()).contains("transient"));
    }

    @Test
    void aSmallDifferenceAtTheStartIsNotCalledATransient() {
        // 5% slower at first: real, perhaps, but under the 10% a transient must differ by.
        assertTrue(Transient.of(run(12, 10, 2, 15.75, 15, 5, null)).isEmpty());
    }

    @Test
    void tooFewIntervalsAndTheWarmUpSayNothing() {
        assertTrue(Transient.of(run(9, 10, 1, 700, 15, 1, null)).isEmpty(), "9 intervals are too few");
        // Slow for half the run: it never settled long enough to tell a start-up from a shift.
        assertTrue(Transient.of(run(12, 10, 6, 700, 15, 1, null)).isEmpty());
        // The slow interval is the warm-up: excluded from the results, so nothing is left to call a transient.
        assertTrue(Transient.of(run(12, 10, 1, 700, 15, 1, "warmup")).isEmpty());
    }

    @Test
    void onlyTheIntervalsThatDifferAreNamed() {
        // MSER cuts the low second value with the high first one; the report names the first alone.
        double[] z = {121, 7.6, 8.9, 10.3, 11.1, 10.8, 11.7, 8.3, 9.6, 9.9, 8.4, 8.2};
        assertEquals(2, Transient.truncation(z));
        assertEquals(1, Transient.trimmed(z, 2));
    }

    @Test
    void theTruncationRuleIsMsers() {
        // MSER(d) = sum of squares of z[d..] about their mean / (n - d)^2: d = 1 leaves {1,1,1,1} with 0.
        assertEquals(1, Transient.truncation(new double[] {9, 1, 1, 1, 1}));
        assertEquals(0, Transient.truncation(new double[] {1, 1, 1, 1, 1}));
        // Never more than half: a level shift late in the run is not a start-up transient.
        assertEquals(0, Transient.truncation(new double[] {1, 1, 1, 1, 1, 1, 1, 9}));
    }
}

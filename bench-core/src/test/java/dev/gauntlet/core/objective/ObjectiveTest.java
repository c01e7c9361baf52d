package dev.gauntlet.core.objective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ObjectiveTest {

    private static Histogram millis(long times, double ms) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(Math.round(ms * 1e6), times);
        return h;
    }

    private static OperationResult op(String name, Histogram h, long errors, long unissued) {
        return new OperationResult(name, h.getTotalCount(), errors, 0, h.getTotalCount() / 10.0, LatencySummary.of(h),
                HistogramCodec.encode(h), null, null, null, unissued, null, 0, 0, Map.of());
    }

    /** 10 s measured: newOrder 1,000 x 10 ms (1 failed, 1 never issued), payment 1,000 x 100 ms; tpmC; endToEnd. */
    private static RunResult run() {
        return RunResult.builder().runId("r").workload("tpcc").measuredSeconds(10)
                .operations(List.of(op("newOrder", millis(1000, 10), 1, 1), op("payment", millis(1000, 100), 0, 0)))
                .metrics(Map.of("tpmC", 20000.0))
                .observations(Map.of("endToEnd", Timing.of(millis(500, 3)))).build();
    }

    private static ObjectiveOutcome judge(String objective) {
        return Objective.parse(objective).judge(run());
    }

    @Test
    void readsTheIssuesExamples() {
        Objective p99 = Objective.parse("p99(newOrder) <= 50ms");
        assertEquals(Objective.Measure.LATENCY, p99.measure());
        assertEquals("newOrder", p99.name());
        assertEquals(99, p99.percentile());
        assertEquals(50, p99.bound());
        assertTrue(p99.atMost());
        assertFalse(p99.strict());
        Objective tail = Objective.parse("  p99.9 <= 200ms ");
        assertEquals("p99.9 <= 200ms", tail.text());
        assertEquals(99.9, tail.percentile());
        assertNull(tail.name(), "all operations");
        Objective tpmC = Objective.parse("tpmC >= 20000");
        assertEquals(Objective.Measure.METRIC, tpmC.measure());
        assertEquals("tpmC", tpmC.name());
        assertFalse(tpmC.atMost());
        assertEquals(Objective.Measure.THROUGHPUT, Objective.parse("ops/s >= 5000").measure());
        assertEquals(Objective.Measure.THROUGHPUT, Objective.parse("tps>5000").measure());
        Objective errors = Objective.parse("errors <= 0.1%");
        assertEquals(0.001, errors.bound(), 1e-15);
        assertEquals(1.5, Objective.parse("p50 < 1500us").bound(), 1e-12);
        assertEquals(2000, Objective.parse("p95 <= 2s").bound(), 1e-12);
    }

    @Test
    void refusesWhatIsNotAnObjectiveInOneLine() {
        assertRefused("p99 <= 50", "'p99 <= 50': give the latency's unit (us, ms or s)");
        assertRefused("p99 <= 50 parsecs", "'p99 <= 50 parsecs': 'parsecs' is not a unit of time (us, ms or s)");
        assertRefused("p101 <= 1ms", "'p101 <= 1ms': a percentile is above 0 and at most 100");
        assertRefused("errors <= 5ms", "'errors <= 5ms': errors is a share: 0.1% or 0.001");
        assertRefused("ops/s >= 5k", "'ops/s >= 5k': the bound is operations a second, a number without 'k'");
        assertRefused("tpmC(newOrder) >= 1", "'tpmC(newOrder) >= 1': only a percentile, ops/s and errors take an "
                + "operation; tpmC is a metric of the whole run");
        assertRefused("p99() <= 1ms", "'p99() <= 1ms': name an operation between the parentheses, or leave them out "
                + "for all operations");
        assertRefused("p99 <= fast", "'p99 <= fast': 'fast' is not a number");
        assertRefused("lag(op) <= 1s", "'lag(op) <= 1s': lag is the whole schedule's; leave out the operation");
        assertRefused("lag <= 100", "'lag <= 100': give the latency's unit (us, ms or s)");
        IllegalArgumentException noOp = assertThrows(IllegalArgumentException.class, () -> Objective.parse("p99 = 5ms"));
        assertTrue(noOp.getMessage().startsWith("'p99 = 5ms' is not an objective (MEASURE OP BOUND: "), noOp.getMessage());
    }

    private static void assertRefused(String objective, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Objective.parse(objective))
                .getMessage());
    }

    @Test
    void anUnknownOperationIsRefusedNamingTheKnownOnes() {
        List<Objective> typo = Objective.parseAll(List.of("p99 <= 1s", "p99(neworder) <= 50ms"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Objective.checkNames(typo, List.of("newOrder", "payment"), List.of("endToEnd")));
        assertEquals("'p99(neworder) <= 50ms': no operation 'neworder' (this workload's: newOrder, payment, endToEnd)",
                e.getMessage());
        // An observed latency may be named by a percentile, not by a rate.
        Objective.checkNames(Objective.parseAll(List.of("p99(endToEnd) <= 5ms")), List.of("publish"),
                List.of("endToEnd"));
        assertThrows(IllegalArgumentException.class, () -> Objective.checkNames(
                Objective.parseAll(List.of("ops/s(endToEnd) >= 1")), List.of("publish"), List.of("endToEnd")));
    }

    @Test
    void judgesPercentilesFromTheHistogramsOfAllOperationsNotAnAverageOfThem() {
        // Half the operations take 10 ms, half 100 ms: the p50 of all is 10 ms (an average of p50s would be 55).
        ObjectiveOutcome p50 = judge("p50 <= 11ms");
        assertTrue(p50.met(), p50.value());
        assertEquals(10.0, p50.measured(), 0.01);
        ObjectiveOutcome p99 = judge("p99 <= 50ms");
        assertFalse(p99.met());
        assertEquals(100.0, p99.measured(), 0.1);
        assertEquals("MISSED", p99.verdict());
        assertEquals("100.0 ms", p99.value());
        assertTrue(judge("p99(newOrder) <= 11ms").met());
        assertTrue(judge("p99(endToEnd) <= 3.1ms").met(), "an observed latency");
        assertFalse(judge("p99(endToEnd) < 3ms").met());
    }

    @Test
    void judgesRatesErrorSharesAndMetricsWithTheirComparison() {
        assertEquals(200.0, judge("ops/s >= 200").measured(), 1e-9);
        assertTrue(judge("ops/s >= 200").met());
        assertFalse(judge("ops/s > 200").met(), "strictly above");
        assertFalse(judge("ops/s(newOrder) >= 150").met());
        // 1 failed and 1 never issued of 2,002 due.
        ObjectiveOutcome errors = judge("errors <= 0.1%");
        assertEquals(2.0 / 2002, errors.measured(), 1e-15);
        assertTrue(errors.met());
        assertEquals("0.100%", errors.value());
        assertFalse(judge("errors(newOrder) <= 0.1%").met(), "2 of 1,002");
        assertTrue(judge("tpmC >= 20000").met());
        assertFalse(judge("tpmC > 20000").met());
        ObjectiveOutcome typo = judge("tpmc >= 1");
        assertFalse(typo.met());
        assertNull(typo.measured());
        assertEquals("not measured: the result has no metric 'tpmc' (it has: tpmC)", typo.value());
    }
}

package dev.gauntlet.tpcc.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BinomialIntervalTest {

    @Test
    void boundsAreTheExactBinomialQuantiles() {
        // Computed independently from the binomial probabilities (lgamma): the largest lo with P(X < lo) <= 0.0005
        // and the smallest hi with P(X > hi) <= 0.0005.
        assertBounds(0.01, 10_000, 69, 134);
        assertBounds(0.01, 20_000, 155, 248);
        assertBounds(0.60, 100_000, 59_490, 60_509);
        assertBounds(10.0 / 23, 23_230, 9_852, 10_349);
        assertBounds(0.01, 500, 0, 14);
    }

    @Test
    void theIntervalIsVacuousUntilItExcludesNoneAndAll() {
        assertEquals(757, BinomialInterval.leastMeaningfulSample(0.01));
        assertTrue(BinomialInterval.around(0.01, 756).vacuous(), "0 of 756 happens more than 1 in 2,000 runs");
        assertFalse(BinomialInterval.around(0.01, 757).vacuous());
        assertEquals(15, BinomialInterval.leastMeaningfulSample(0.60));
        assertTrue(BinomialInterval.around(0.60, 14).vacuous(), "14 of 14 happens more than 1 in 2,000 runs");
        assertFalse(BinomialInterval.around(0.60, 15).vacuous());
        assertTrue(BinomialInterval.around(0.60, 0).vacuous());
    }

    @Test
    void aVeryLongRunIsCheap() {
        // A billion order lines: the work grows with the standard deviation, not with n.
        BinomialInterval lines = BinomialInterval.around(0.01, 1_000_000_000L);
        assertTrue(lines.accepts(10_000_000) && lines.accepts(9_990_000), lines::toString);
        assertFalse(lines.accepts(9_980_000) || lines.accepts(10_020_000), lines::toString);
    }

    private static void assertBounds(double p, long n, long lo, long hi) {
        BinomialInterval interval = BinomialInterval.around(p, n);
        assertEquals(lo, interval.lo(), interval::toString);
        assertEquals(hi, interval.hi(), interval::toString);
    }
}

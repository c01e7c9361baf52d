package dev.gauntlet.tpcc.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BinomialIntervalTest {

    /** The tables below are the 99.9% interval's: its bounds were checked independently (see the table). */
    private static final double LEVEL = 0.001;

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

    /**
     * lo..hi for p = 0.01, 0.1, 0.45 and 0.6 at each n, recorded from the hand-summed weights the library replaced
     * (it gives them all unchanged). Every bound is exact, checked against the tails in 40-digit arithmetic
     * (mpmath): {@code P(X <= lo) > 0.0005 >= P(X < lo)} and {@code P(X >= hi) > 0.0005 >= P(X > hi)}. The closest
     * call, 0.45 at 100,000: P(X <= 44,482) is 1.00004 times 0.0005.
     */
    @ParameterizedTest(name = "n {0}")
    @CsvSource(delimiter = '|', textBlock = """
        0       | 0..0           | 0..0           | 0..0           | 0..0
        1       | 0..1           | 0..1           | 0..1           | 0..1
        10      | 0..2           | 0..5           | 0..9           | 1..10
        100     | 0..6           | 2..21          | 29..61         | 44..76
        1000    | 2..22          | 70..132        | 398..502       | 549..651
        10000   | 69..134        | 903..1100      | 4336..4664     | 5838..6161
        100000  | 898..1105      | 9689..10313    | 44482..45518   | 59490..60509
        1000000 | 9674..10329    | 99014..100988  | 448363..451637 | 598388..601612
        """)
    void boundsOverATable(long n, String at1, String at10, String at45, String at60) {
        double[] p = {0.01, 0.10, 0.45, 0.60};
        String[] bounds = {at1, at10, at45, at60};
        for (int i = 0; i < p.length; i++) {
            String[] loHi = bounds[i].split("\\.\\.");
            assertBounds(p[i], n, Long.parseLong(loHi[0]), Long.parseLong(loHi[1]));
        }
    }

    @Test
    void theIntervalIsVacuousUntilItExcludesNoneAndAll() {
        assertEquals(757, BinomialInterval.leastMeaningfulSample(0.01, LEVEL));
        assertTrue(BinomialInterval.around(0.01, 756, LEVEL).vacuous(), "0 of 756 happens more than 1 in 2,000 runs");
        assertFalse(BinomialInterval.around(0.01, 757, LEVEL).vacuous());
        assertEquals(15, BinomialInterval.leastMeaningfulSample(0.60, LEVEL));
        assertTrue(BinomialInterval.around(0.60, 14, LEVEL).vacuous(), "14 of 14 happens more than 1 in 2,000 runs");
        assertFalse(BinomialInterval.around(0.60, 15, LEVEL).vacuous());
        assertTrue(BinomialInterval.around(0.60, 0, LEVEL).vacuous());
    }

    @Test
    void aVeryLongRunIsCheapAndTheTrialsEndAtTheLibrarysInt() {
        // A billion order lines: the library's inverses bisect its regularized beta, with no sum over the counts.
        BinomialInterval lines = BinomialInterval.around(0.01, 1_000_000_000L, LEVEL);
        assertTrue(lines.accepts(10_000_000) && lines.accepts(9_990_000), lines::toString);
        assertFalse(lines.accepts(9_980_000) || lines.accepts(10_020_000), lines::toString);
        BinomialInterval most = BinomialInterval.around(0.01, BinomialInterval.MOST_TRIALS, LEVEL);
        assertTrue(most.accepts(Math.round(0.01 * Integer.MAX_VALUE)), most::toString);
        assertThrows(IllegalArgumentException.class,
                () -> BinomialInterval.around(0.01, BinomialInterval.MOST_TRIALS + 1, LEVEL));
    }

    @Test
    void pastTheMostTrialsTheSpecBandAloneJudges() {
        AuditedShare rollbacks = new AuditedShare("9.2.2 New-Order rollbacks", "rollbacks", "New-Orders", 1, 0.9, 1.1);
        long whole = 3_000_000_000L;
        Check within = rollbacks.judge(whole / 100, whole);
        assertEquals(Check.Status.PASS, within.status(), within::toString);
        assertEquals("rollbacks 1.00% of 3,000,000,000 New-Orders; accepted 0.90-1.10% (spec; no 99.999% binomial "
                + "interval past 2,147,483,647 New-Orders)", within.detail());
        assertEquals(Check.Status.FAIL, rollbacks.judge(whole / 50, whole).status());
    }

    @Test
    void anIntervalIsNamedByItsLevelAndTheAuditsIsTheTighterOne() {
        assertEquals("99.9% binomial interval", BinomialInterval.name(0.001));
        assertEquals("99.999% binomial interval", BinomialInterval.name(AuditedShare.FALSE_ALARMS));
        // Nine shares at 1 in 100,000 each: a correct run fails the audit at most 1 time in 10,000.
        assertTrue(9 * AuditedShare.FALSE_ALARMS <= 0.0001);
        // The tighter level needs more trials before "none" is rare enough, and accepts more around the share.
        assertEquals(1_215, BinomialInterval.leastMeaningfulSample(0.01, AuditedShare.FALSE_ALARMS));
        BinomialInterval wider = BinomialInterval.around(0.01, 10_000, AuditedShare.FALSE_ALARMS);
        BinomialInterval narrower = BinomialInterval.around(0.01, 10_000, LEVEL);
        assertTrue(wider.lo() < narrower.lo() && wider.hi() > narrower.hi(), wider + " vs " + narrower);
        assertThrows(IllegalArgumentException.class, () -> BinomialInterval.around(0.01, 10, 0));
    }

    private static void assertBounds(double p, long n, long lo, long hi) {
        BinomialInterval interval = BinomialInterval.around(p, n, LEVEL);
        assertEquals(lo, interval.lo(), interval::toString);
        assertEquals(hi, interval.hi(), interval::toString);
    }
}

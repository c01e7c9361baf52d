package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The priming's "code compiled" condition, asked every 50 ms as the runner does, against a compilers' clock the test
 * moves: it holds once the last 10 s held under 3% of compiling, never before its least time, never while the
 * compilers keep busy, never before an operation has run as often as C2 waits for, and never in a JVM that keeps no
 * compile time.
 */
class CompilerSettledTest {

    /** Asks every 50 ms from {@code fromMillis} to {@code toMillis}, the compilers spending {@code busy} of the time. */
    private static boolean askUntil(CompilerSettled c, AtomicLong compiling, long fromMillis, long toMillis, double busy) {
        boolean held = false;
        for (long t = fromMillis; t <= toMillis; t += 50) {
            held = c.holds(Duration.ofMillis(t));
            compiling.addAndGet(Math.round(50 * busy));
        }
        return held;
    }

    @Test
    void holdsOnceTheCompilersHaveBeenQuietForTheWindow() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(2), compiling::get, 0);
        assertFalse(askUntil(c, compiling, 0, 5_000, 0.5), "busy compilers: not settled");
        long window = CompilerSettled.WINDOW.toMillis();
        assertFalse(askUntil(c, compiling, 5_050, 5_000 + window - 1_000, 0.01), "quiet for less than the window: not yet");
        assertTrue(askUntil(c, compiling, 5_050 + window - 1_000, 5_000 + window + 1_200, 0.01),
                "quiet (1%) for the whole window");
    }

    @Test
    void aFewPercentOfCompilingIsStillBusy() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(2), compiling::get, 0);
        assertFalse(askUntil(c, compiling, 0, 30_000, 0.05), "5% of the time compiling, all along");
    }

    @Test
    void neverBeforeItsLeastTimeNorWithoutACompilersClock() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(10), compiling::get, 0);
        assertFalse(askUntil(c, compiling, 0, 9_950, 0), "quiet, but before 10 s");
        assertTrue(c.holds(Duration.ofSeconds(10)));
        CompilerSettled none = new CompilerSettled(Duration.ZERO, null, 0);
        assertFalse(none.holds(Duration.ofMinutes(5)), "no compile time kept: only the limit ends the priming");
    }

    @Test
    void aNewRunForgetsTheLastOnesSamples() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ZERO, compiling::get, 0);
        assertTrue(askUntil(c, compiling, 0, CompilerSettled.WINDOW.toMillis() + 100, 0));
        c.runStarts();
        assertFalse(c.holds(Duration.ofMillis(100)), "a window of its own first");
    }

    @Test
    void notBeforeAnOperationHasRunAsOftenAsTheOptimizingCompilerWaitsFor() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ZERO, compiling::get, 5_000);
        assertFalse(askUntil(c, compiling, 0, 30_000, 0), "quiet for 30 s, but no operation has run yet");
        c.observe(interval(Map.of("add", 2_000L, "process", 2_000L)));
        c.observe(interval(Map.of("add", 2_000L, "process", 2_000L)));
        assertFalse(askUntil(c, compiling, 30_050, 30_100, 0), "4,000 of each: C2 has not compiled them yet");
        c.observe(interval(Map.of("add", 1_000L, "process", 900L)));
        assertTrue(c.holds(Duration.ofMillis(30_150)), "5,000 adds: quiet and compiled");
        c.runStarts();
        c.observe(interval(Map.of("add", 4_999L)));
        assertFalse(askUntil(c, compiling, 0, 20_000, 0), "a new run counts its own operations");
    }

    @Test
    void thisJvmsThresholdIsReadFromItsOptions() {
        long calls = CompilerSettled.callsToCompile();
        assertTrue(calls > 0 && calls <= 100_000, "C2's call threshold on a default JVM: " + calls);
    }

    private static Interval interval(Map<String, Long> counts) {
        Map<String, IntervalOperation> ops = new java.util.LinkedHashMap<>();
        counts.forEach((name, n) -> ops.put(name, new IntervalOperation(n, n, 1, 1, 1, 1, 0, 0, null, null, null)));
        return new Interval(1, 1, "prime", ops, 0, 0, null, null, null, null, null);
    }
}

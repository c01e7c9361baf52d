package dev.gauntlet.core.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The priming's "code compiled" condition, asked every 50 ms as the runner does, against a compilers' clock the test
 * moves: it holds once the last 10 s held under 3% of compiling, never before its least time, never while the
 * compilers keep busy, and never in a JVM that keeps no compile time.
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
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(2), compiling::get);
        assertFalse(askUntil(c, compiling, 0, 5_000, 0.5), "busy compilers: not settled");
        long window = CompilerSettled.WINDOW.toMillis();
        assertFalse(askUntil(c, compiling, 5_050, 5_000 + window - 1_000, 0.01), "quiet for less than the window: not yet");
        assertTrue(askUntil(c, compiling, 5_050 + window - 1_000, 5_000 + window + 1_200, 0.01),
                "quiet (1%) for the whole window");
    }

    @Test
    void aFewPercentOfCompilingIsStillBusy() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(2), compiling::get);
        assertFalse(askUntil(c, compiling, 0, 30_000, 0.05), "5% of the time compiling, all along");
    }

    @Test
    void neverBeforeItsLeastTimeNorWithoutACompilersClock() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ofSeconds(10), compiling::get);
        assertFalse(askUntil(c, compiling, 0, 9_950, 0), "quiet, but before 10 s");
        assertTrue(c.holds(Duration.ofSeconds(10)));
        CompilerSettled none = new CompilerSettled(Duration.ZERO, null);
        assertFalse(none.holds(Duration.ofMinutes(5)), "no compile time kept: only the limit ends the priming");
    }

    @Test
    void aNewRunForgetsTheLastOnesSamples() {
        AtomicLong compiling = new AtomicLong();
        CompilerSettled c = new CompilerSettled(Duration.ZERO, compiling::get);
        assertTrue(askUntil(c, compiling, 0, CompilerSettled.WINDOW.toMillis() + 100, 0));
        c.runStarts();
        assertFalse(c.holds(Duration.ofMillis(100)), "a window of its own first");
    }
}

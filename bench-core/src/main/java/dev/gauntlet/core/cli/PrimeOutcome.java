package dev.gauntlet.core.cli;

import dev.gauntlet.core.run.Condition;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * How a priming that waits for a condition (the compilers settling) ended: when it held, or at its limit before it
 * did. A priming stopped at its limit leaves compiling in the measured run (bench-trainevents' jsonb variant: about
 * 1 s of the measured minute's 1.9 s of driver CPU), so the result records it ({@value #ENDED}, {@value #SETTLED}) and
 * the run's summary says it.
 *
 * @param until   what the priming waited for
 * @param limit   its limit
 * @param seconds how long it lasted
 */
public record PrimeOutcome(Condition until, Duration limit, double seconds) {

    /** The result parameter that says how the priming ended, in words. */
    public static final String ENDED = "primeEnded";
    /** The result parameter that says whether its condition held ({@code true}) or the limit ended it. */
    public static final String SETTLED = "primeSettled";

    /** A priming that lasted within half a second of its limit counts as ended by it. */
    private static final double AT_THE_LIMIT_SECONDS = 0.5;

    /** Whether the condition ended the priming, before its limit. */
    public boolean settled() {
        return seconds < limit.toNanos() / 1e9 - AT_THE_LIMIT_SECONDS;
    }

    /** "after 53.2 s, when the compilers settle" or "at its limit, 3m, before the compilers settle". */
    public String text() {
        return settled() ? String.format(Locale.ROOT, "after %.1f s, when %s", seconds, until)
                : "at its limit, " + DurationConverter.format(limit) + ", before " + until;
    }

    /** The two parameters a result records. */
    public void record(Map<String, Object> parameters) {
        parameters.put(ENDED, text());
        parameters.put(SETTLED, settled());
    }

    /** The summary's line for a priming its limit ended, or null when its condition held (or there was none). */
    public static String warning(Map<String, Object> parameters) {
        if (!Boolean.FALSE.equals(parameters.get(SETTLED))) {
            return null;
        }
        return "warning: the priming ended " + parameters.get(ENDED) + ": compiling may fall in the measured run "
                + "(driverCompilingMillis says how much); a longer --duration gives --prime auto longer, or set "
                + "--prime to a time";
    }
}

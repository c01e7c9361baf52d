package dev.gauntlet.core.cli;

import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.DriverCompiling;
import dev.gauntlet.core.run.DriverCpu;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a priming that waits for a condition (the compilers settling) ended: when it held, or at its limit before it
 * did. A priming stopped at its limit leaves compiling in the measured run (bench-trainevents' jsonb variant: about
 * 1 s of the measured minute's 1.9 s of driver CPU), so the result records it ({@value #ENDED}, {@value #SETTLED}),
 * and the run's summary warns of it where it changed the figures ({@link #warning}).
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

    /**
     * The share of the driver's CPU time in the measured run above which the compilers' time there earns a priming
     * its limit ended the summary's warning, when {@code --prime} was left to its default: 5%. Below it an unsettled
     * priming leaves no more compiling than a settled one does (this project's settled runs in reports/ left
     * 1.9-4.2%, one 10%; the unsettled bench-script tpcb-like runs at 8 clients 1.4-4.5%), and the driver's CPU per
     * operation, the figure compiling adds to directly, is at most about 5% high. The compilers' time is elapsed, not
     * CPU (on a busy machine it can exceed the driver's CPU), so the share errs towards warning.
     */
    public static final double COMPILING_SHARE = 0.05;

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

    /**
     * The summary's line for a priming its limit ended, decided from what the run measured, or null. With
     * {@code --prime} left to its default (auto), only when it changed the figures: when the compilers worked more
     * than {@link #COMPILING_SHARE} of the driver's CPU time in the measured phases ({@link DriverCompiling} over
     * {@link DriverCpu}; the priming and the warm-up do not count); the line says the share. With {@code --prime}
     * given, or where the run lacks either figure, whenever the limit ended it. Null when its condition held, or
     * there was none.
     *
     * @param parameters the result's, with {@value #SETTLED} and {@value #ENDED}
     * @param phases     the result's, each with its probes
     * @param primeGiven whether the user gave {@code --prime} (then its outcome is theirs to hear of)
     */
    public static String warning(Map<String, Object> parameters, List<Phase> phases, boolean primeGiven) {
        if (!Boolean.FALSE.equals(parameters.get(SETTLED))) {
            return null;
        }
        String ended = "the priming ended " + parameters.get(ENDED);
        String advice = "a longer --duration gives --prime auto longer, or set --prime to a time";
        long compilingMillis = 0;
        long cpuNanos = 0;
        boolean measured = false;
        for (Phase ph : phases) {
            if (!ph.isMeasured() || Phase.PRIME.equals(ph.name())) {
                continue;
            }
            Long compiling = ph.probe(DriverCompiling.NAME);
            Long cpu = ph.probe(DriverCpu.NAME);
            if (compiling == null || cpu == null) {
                measured = false;
                break;
            }
            compilingMillis += compiling;
            cpuNanos += cpu;
            measured = true;
        }
        if (primeGiven || !measured || cpuNanos <= 0) {
            return "warning: " + ended + ": compiling may fall in the measured run (driverCompilingMillis says how "
                    + "much); " + advice;
        }
        double share = compilingMillis * 1e6 / cpuNanos;
        if (share <= COMPILING_SHARE) {
            return null;
        }
        return String.format(Locale.ROOT, "warning: the compilers worked %.1f s in the measured run, %.1f%% of the "
                        + "driver's %.1f s of CPU there (over %.0f%%): %s; %s", compilingMillis / 1e3, share * 100,
                cpuNanos / 1e9, COMPILING_SHARE * 100, ended, advice);
    }
}

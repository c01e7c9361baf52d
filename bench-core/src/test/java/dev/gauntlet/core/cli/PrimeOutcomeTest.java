package dev.gauntlet.core.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.DriverCompiling;
import dev.gauntlet.core.run.DriverCpu;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a priming its limit ended earns the summary's warning: when it changes the figures, or --prime was given. */
class PrimeOutcomeTest {

    private static final Map<String, Object> ENDED_AT_LIMIT = Map.of(PrimeOutcome.ENDED,
            "at its limit, 15s, before the compilers settle", PrimeOutcome.SETTLED, false);
    private static final Map<String, Object> SETTLED = Map.of(PrimeOutcome.ENDED,
            "after 13.8 s, when the compilers settle", PrimeOutcome.SETTLED, true);

    /** A prime phase that compiled a lot (never counted), a warm-up (not measured) and the measured phase. */
    private static List<Phase> phases(long measuredCompilingMillis, long measuredCpuMillis) {
        return List.of(
                new Phase(Phase.PRIME, 0, 15, probes(9_000, 20_000), false, Map.of()),
                new Phase(Phase.WARMUP, 15, 20, probes(2_000, 5_000), false, Map.of()),
                new Phase(Phase.MEASURE, 20, 80, probes(measuredCompilingMillis, measuredCpuMillis), true, Map.of()));
    }

    private static Map<String, Long> probes(long compilingMillis, long cpuMillis) {
        return Map.of(DriverCompiling.NAME, compilingMillis, DriverCpu.NAME, cpuMillis * 1_000_000);
    }

    @Test
    void compilingBelowTheShareInTheMeasuredRunEarnsNoWarning() {
        // 1.2 s of the measured run's 30 s of driver CPU: 4%, under 5%; the priming's and warm-up's do not count.
        assertNull(PrimeOutcome.warning(ENDED_AT_LIMIT, phases(1_200, 30_000), false));
    }

    @Test
    void compilingAboveTheShareInTheMeasuredRunIsWarnedWithTheShare() {
        // 2.73 s of 30 s: 9.1%.
        String w = PrimeOutcome.warning(ENDED_AT_LIMIT, phases(2_730, 30_000), false);
        assertEquals("warning: the compilers worked 2.7 s in the measured run, 9.1% of the driver's 30.0 s of CPU "
                + "there (over 5%): the priming ended at its limit, 15s, before the compilers settle; a longer "
                + "--duration gives --prime auto longer, or set --prime to a time", w);
    }

    @Test
    void anExplicitPrimeIsWarnedWheneverItsLimitEndedIt() {
        String w = PrimeOutcome.warning(ENDED_AT_LIMIT, phases(100, 30_000), true);
        assertTrue(w != null && w.startsWith("warning: the priming ended at its limit, 15s, before the compilers "
                + "settle: compiling may fall in the measured run"), w);
    }

    @Test
    void withoutTheDriversCpuTheWarningStaysAsItWas() {
        List<Phase> unknown = List.of(new Phase(Phase.MEASURE, 0, 60, Map.of(DriverCompiling.NAME, 100L), true,
                Map.of()));
        assertTrue(PrimeOutcome.warning(ENDED_AT_LIMIT, unknown, false).startsWith("warning: the priming ended"));
    }

    @Test
    void aSettledPrimingIsNeverWarned() {
        assertNull(PrimeOutcome.warning(SETTLED, phases(30_000, 30_000), true));
        assertNull(PrimeOutcome.warning(Map.of(), phases(30_000, 30_000), false));
    }
}

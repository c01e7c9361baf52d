package dev.gauntlet.tpcc.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.tpcc.workload.Deck;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TpccFiguresTest {

    /** A run of 60 measured seconds in which {@code committed} New-Orders committed and 1% more rolled back. */
    private static RunResult minuteWith(long committed) {
        return minuteWith(committed, Map.of());
    }

    /** The same, with the measured phase's probe readings (e.g. the server's New-Order count). */
    private static RunResult minuteWith(long committed, Map<String, Long> probes) {
        long rolledBack = committed / 100;
        OperationResult newOrder = OperationResult.of("newOrder", committed + rolledBack, 0, 0, 0, null, null, null,
                null, Map.of("rolledBack", rolledBack));
        return RunResult.builder().workload("tpcc").measuredSeconds(60).clients(10).operations(List.of(newOrder))
                .phases(List.of(new dev.gauntlet.core.result.Phase("measure", 0, 60, probes))).build();
    }

    @Test
    void theCeilingIsWhatTheDeckAndTheSpecsTimesAllow() {
        // 10 terminals x 10 New-Orders per 10x(18+12) + 10x(3+12) + (2+10) + (2+5) + (2+5) = 476 s.
        assertEquals(476.0, Deck.cycleSeconds(), 1e-9);
        assertEquals(10 * 10 * 60 / 476.0, TpccFigures.MAX_TPMC_PER_WAREHOUSE, 1e-12);
        assertEquals(12.605, TpccFigures.MAX_TPMC_PER_WAREHOUSE, 5e-4);
    }

    @Test
    void terminalsAtTheCeilingAreOneHundredPercentEfficient() {
        // 200 warehouses x 12.605 = 2,521 New-Orders a minute; the rolled-back ones do not count.
        Metrics m = TpccFigures.metrics(minuteWith(2_521), 200, true);

        assertEquals(2_521, m.values().get("tpmC"), 1e-9);
        assertEquals(100.0, m.values().get("efficiencyPercent"), 0.01);
    }

    @Test
    void aRunWithoutWaitsHasNoEfficiency() {
        Metrics m = TpccFigures.metrics(minuteWith(40_000, Map.of(ServerNewOrders.NAME, 40_000L)), 2, false);

        assertEquals(Map.of("tpmC", 40_000.0, "serverTpmC", 40_000.0), m.values());
        assertFalse(TpccFigures.definitions(false).containsKey("efficiency ceiling"));
    }
}

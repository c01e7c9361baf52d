package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TpccRandomTest {

    @Test
    void lastNamesAreBuiltFromSyllables() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
    }

    @Test
    void nuRandStaysInRangeAndIsSkewed() {
        TpccRandom r = new TpccRandom(3);
        NURandConstants c = new NURandConstants(123, 259, 7911);
        int[] hits = new int[Scale.CUSTOMERS_PER_DISTRICT + 1];
        for (int i = 0; i < 300_000; i++) {
            int id = r.customerId(c);
            assertTrue(id >= 1 && id <= Scale.CUSTOMERS_PER_DISTRICT, "id " + id);
            hits[id]++;
        }
        int max = 0;
        int min = Integer.MAX_VALUE;
        for (int i = 1; i < hits.length; i++) {
            max = Math.max(max, hits[i]);
            min = Math.min(min, hits[i]);
        }
        assertTrue(max > 3 * min, "non-uniform: max " + max + ", min " + min);
    }

    @Test
    void theRunConstantKeepsTheRequiredDistanceFromTheLoadConstant() {
        TpccRandom r = new TpccRandom(5);
        for (int load = 0; load <= 255; load++) {
            NURandConstants run = NURandConstants.forRun(r, load);
            int delta = Math.abs(run.lastName() - load);
            assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "load " + load + " run " + run);
        }
        assertFalse(NURandConstants.validRunDelta(96));
        assertFalse(NURandConstants.validRunDelta(64));
        assertTrue(NURandConstants.validRunDelta(65));
    }

    @Test
    void aboutOneDataFieldInTenSaysOriginal() {
        TpccRandom r = new TpccRandom(9);
        int original = 0;
        for (int i = 0; i < 100_000; i++) {
            String s = r.data(26, 50);
            assertTrue(s.length() >= 26 && s.length() <= 50);
            if (s.contains("ORIGINAL")) {
                original++;
            }
        }
        assertEquals(10_000, original, 400);
    }

    @Test
    void thinkTimesAreCappedAtTenTimesTheMean() {
        TpccRandom r = new TpccRandom(1);
        double sum = 0;
        for (int i = 0; i < 200_000; i++) {
            double t = r.negativeExponential(12);
            assertTrue(t >= 0 && t <= 120);
            sum += t;
        }
        assertEquals(12, sum / 200_000, 0.2);
    }
}

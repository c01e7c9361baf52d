package dev.gauntlet.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerShareTest {

    @Test
    void partsAreContiguousDisjointAndCoverEverythingWithSizesWithinOne() {
        for (int total : new int[] {0, 1, 7, 8, 10, 101}) {
            for (int n = 1; n <= 9; n++) {
                int next = 0;
                int smallest = Integer.MAX_VALUE;
                int largest = 0;
                for (int i = 0; i < n; i++) {
                    WorkerShare.Range r = WorkerShare.of(i, n).part(total);
                    assertEquals(next, r.from(), total + " over " + n + ", worker " + i);
                    next = r.to();
                    smallest = Math.min(smallest, r.size());
                    largest = Math.max(largest, r.size());
                }
                assertEquals(total, next, total + " over " + n);
                assertTrue(largest - smallest <= 1, total + " over " + n);
            }
        }
        assertEquals(new WorkerShare.Range(3, 6), WorkerShare.of(1, 4).part(10));
    }

    @Test
    void parsesTheJobIndexFormAndMergedShares() {
        assertEquals(2, WorkerShare.parse("2/4").index());
        assertEquals("0,1,3/4", WorkerShare.parse(" 3,0,1 / 4 ").label());
        for (String bad : List.of("4/4", "-1/4", "1", "/4", "1/", "a/b", "1/0")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkerShare.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void aUnionRefusesOverlapsAndOtherSplitsAndNamesWhatIsMissing() {
        WorkerShare some = WorkerShare.union(List.of(WorkerShare.parse("0/4"), WorkerShare.parse("2/4")));
        assertEquals("0,2/4", some.label());
        assertFalse(some.whole());
        assertEquals("1,3/4", some.missing());
        WorkerShare all = WorkerShare.union(List.of(some, WorkerShare.parse("1,3/4")));
        assertTrue(all.whole());
        assertEquals("", all.missing());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> WorkerShare.union(List.of(some, WorkerShare.parse("2/4")))).getMessage().contains("2/4"));
        assertThrows(IllegalArgumentException.class,
                () -> WorkerShare.union(List.of(WorkerShare.parse("0/4"), WorkerShare.parse("1/2"))));
    }
}

package dev.gauntlet.tpcc.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.testing.RetainedArrays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger of committed New-Orders is on disk, not in the heap, and reads back whole after a driver is killed. */
class CommittedOrdersTest {

    private static final LocalDateTime T = LocalDateTime.of(2026, 12, 2, 5, 0);

    @Test
    void aMillionOrdersCostTheFileAndNotTheHeap(@TempDir Path dir) throws Exception {
        try (CommittedOrders orders = new CommittedOrders()) {
            orders.restartIn(dir);
            for (int i = 0; i < 1_000_000; i++) {
                orders.committed(new CommittedOrders.Order(1 + i % 100, 1 + i % 10, i, i % 3000, 5 + i % 11,
                        T.plusNanos(i * 1000L)));
            }
            assertEquals(1_000_000, orders.size());
            assertEquals(24_000_000, Files.size(dir.resolve(CommittedOrders.FILE)));
            long held = RetainedArrays.bytes(orders);
            assertTrue(held < 1 << 20, held + " bytes of arrays held for a million orders");
        }
    }

    @Test
    void aLedgerCutShortByAKillReadsBackItsWholeOrders(@TempDir Path dir) throws Exception {
        try (CommittedOrders orders = new CommittedOrders()) {
            orders.restartIn(dir);
            orders.committed(new CommittedOrders.Order(3, 7, 4501, 42, 11, T));
            orders.uncertain();
            orders.committed(new CommittedOrders.Order(9, 10, 17, 2999, 5, T.plusNanos(1000)));
        }
        // The driver died in the middle of writing a fourth.
        Files.write(dir.resolve(CommittedOrders.FILE), new byte[] {1, 5, 0, 0, 0, 0, 9},
                java.nio.file.StandardOpenOption.APPEND);
        CommittedOrders back = CommittedOrders.read(dir);
        assertEquals(2, back.size());
        assertEquals(1, back.uncertainCount());
        List<CommittedOrders.Order> read = new ArrayList<>();
        back.forEach(read::add);
        assertEquals(List.of(new CommittedOrders.Order(3, 7, 4501, 42, 11, T),
                new CommittedOrders.Order(9, 10, 17, 2999, 5, T.plusNanos(1000))), read);
    }
}

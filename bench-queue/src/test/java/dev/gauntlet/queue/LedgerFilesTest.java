package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.testing.RetainedArrays;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.pubsub.WriterLedger;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledgers are files in the run's directory, not arrays in the heap: whatever a run's length, the heap holds a few
 * counters of them; the check reads them back from the directory, after a driver killed mid-write too.
 */
@ExtendWith(PostgresExtension.class)
class LedgerFilesTest {

    private static final long MIB = 1 << 20;

    @Test
    void theWorkQueueLedgerKeepsNoIdsInTheHeap() throws Exception {
        AckLedger ledger = new AckLedger();
        long[] batch = new long[1000];
        for (int b = 0; b < 2000; b++) {
            for (int i = 0; i < batch.length; i++) {
                batch[i] = 2 * (b * 1000L + i); // no two ids consecutive: a record each
            }
            ledger.produced(batch);
        }
        long held = RetainedArrays.bytes(ledger);
        assertTrue(held < MIB, "2,000,000 ids, " + held + " bytes of arrays held");
        assertEquals(2_000_000L * 13, Files.size(ledger.file()), "13 bytes an id, on disk");
        assertEquals(2_000_000, ledger.count(AckLedger.Kind.PRODUCED));
        ledger.acked(LongStream.range(10_000_000, 10_001_000).toArray());
        assertEquals(2_000_000L * 13 + 13, Files.size(ledger.file()), "a batch of consecutive ids is one record");
        assertEquals(1000, ledger.count(AckLedger.Kind.ACKED));
        assertTrue(RetainedArrays.bytes(ledger) < MIB);
    }

    @Test
    void thePubSubLedgersKeepNoBatchOrReadInTheHeap() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        for (long b = 0; b < 1_000_000; b++) {
            long seq = ledger.writes().nextSequence();
            ledger.writes().committed(seq, 0, b * 10, 10);
            ledger.read(0, 0, b * 10, b * 10 + 10);
        }
        long held = RetainedArrays.bytes(ledger);
        assertTrue(held < MIB, "1,000,000 batches written and read, " + held + " bytes of arrays held");
        assertEquals(1_000_000L * 25, Files.size(ledger.writes().file()), "25 bytes a batch, on disk");
        assertEquals((1_000_000L + 1) * 25, Files.size(ledger.file()), "25 bytes a read, and the ledger's shape");
        assertEquals(List.of(new DeliveryLedger.Tally(0, 0, 0, 0, 0, 10_000_000)), ledger.tallies(),
                "read back: every offset read once");
    }

    /** Pub/sub and a queue, each run by the command: its ledger is in its directory, and gives the run's verdict. */
    @Test
    void aRunsLedgersAreInItsDirectoryAndGiveItsVerdictReadBack(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_ledger_files");
        Path pubsub = tmp.resolve("pubsub");
        CommandRun run = QueueCommandTest.cli(db, "run", "--writers", "2", "--partitions", "2", "--readers", "1",
                "--write-batch", "10", "--read-batch", "50", "--payload", "16", "--throttle-writes", "500",
                "--retention", "consumed", "--retention-every", "200ms", "--duration", "2s", "--report-every", "1s",
                "--out", pubsub.toString());
        assertEquals(0, run.code(), run.err());
        for (String file : List.of(DeliveryLedger.FILE, WriterLedger.FILE, WriterLedger.RETENTION_FILE)) {
            assertTrue(Files.size(pubsub.resolve(file)) > 0, file + " in the run's directory");
        }
        DeliveryLedger readBack = DeliveryLedger.read(pubsub);
        assertNotNull(readBack);
        assertEquals(new WorkerShare.Range(0, 2), readBack.partitions());
        try (Connection c = db.connect()) {
            sameVerdict(run, ResultFile.read(pubsub), DeliveryChecks.run(c, readBack));
        }

        Path queue = tmp.resolve("queue");
        run = QueueCommandTest.cli(db, "run", "--mode", "queue", "--ack", "flag", "--writers", "2", "--readers", "2",
                "--write-batch", "10", "--read-batch", "20", "--payload", "16", "--throttle-writes", "500",
                "--duration", "2s", "--report-every", "1s", "--out", queue.toString());
        assertEquals(0, run.code(), run.err());
        AckLedger acks = AckLedger.read(queue);
        assertNotNull(acks, AckLedger.FILE + " in the run's directory");
        assertTrue(acks.count(AckLedger.Kind.PRODUCED) > 0 && acks.count(AckLedger.Kind.ACKED) > 0);
        try (Connection c = db.connect()) {
            sameVerdict(run, ResultFile.read(queue), QueueDeliveryChecks.run(c, acks, AckMode.FLAG));
        }
    }

    private static void sameVerdict(CommandRun run, RunResult result, DeliveryChecks.Delivery readBack) {
        assertTrue(readBack.passed(), readBack.checks().toString());
        assertTrue(run.out().contains(readBack.line()), "the run printed " + readBack.line() + ": " + run.out());
        for (Check c : readBack.checks()) {
            assertTrue(result.checks().contains(c), c + " in the run's result: " + result.checks());
        }
    }

    /**
     * The writers' lost batch of {@link PubSubTest}, its ledger in a directory and the driver killed mid-write: each
     * file ends with a record cut short. Read back, the whole records name the batch.
     */
    @Test
    void aLedgerLeftByAKilledDriverNamesTheLostBatch(TestDatabase server, @TempDir Path dir) throws Exception {
        TestDatabase db = server.freshDatabase("queue_ledger_killed");
        try (Connection c = db.connect()) {
            LogSchema.create(c, 1, 1);
        }
        DeliveryLedger ledger = new DeliveryLedger(1, new WorkerShare.Range(0, 1), dir);
        PubSubWorkload w = new PubSubWorkload(new WorkerShare.Range(0, 1), 1, 1, 10, 500, 16, Duration.ofMillis(2),
                ledger, null);
        PubSubTest.runOnOnePartition(db, w, false, false, null, Duration.ofSeconds(1));
        long tip;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT next_offset FROM log_tip")) {
                rs.next();
                tip = rs.getLong(1);
            }
            assertEquals(10, s.executeUpdate("DELETE FROM log_p0 WHERE msg_offset >= " + (tip - 10)));
            s.executeUpdate("UPDATE log_tip SET next_offset = " + (tip - 10));
        }
        PubSubTest.runOnOnePartition(db, w, true, false, null, Duration.ofSeconds(2));
        ledger.close();
        for (String file : List.of(DeliveryLedger.FILE, WriterLedger.FILE)) {
            Files.write(dir.resolve(file), new byte[7], StandardOpenOption.APPEND);
        }
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = DeliveryChecks.run(c, DeliveryLedger.read(dir));
            assertFalse(d.passed(), d.line());
            String batch = "partition 0 offsets " + (tip - 10) + "-" + (tip - 1) + " (10 messages, producer seq ";
            assertTrue(d.checks().stream().anyMatch(k -> k.status() == Check.Status.FAIL
                    && k.detail().contains(batch)), "the lost batch named (" + batch + "...): " + d.checks());
            assertEquals(0, d.lost(), d.line());
            assertEquals(0, d.duplicates(), d.line());
        }
    }
}

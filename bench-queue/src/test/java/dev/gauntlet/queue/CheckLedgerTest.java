package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.WriterLedger;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.sql.PreparedStatement;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --ledger DIR}: the delivery checks a run makes at its end, made again from the ledger the run left in
 * its directory (as after a driver that died before it could make them): they pass, go into the run's result and
 * report, and fail naming what the database lost since; a directory without a ledger, or with one that cannot prove
 * delivery alone, is refused in one line.
 */
@ExtendWith(PostgresExtension.class)
class CheckLedgerTest {

    @Test
    void aPubSubRunsLedgerIsCheckedAfterTheRunAndABatchLostSinceIsNamed(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_check_ledger_pubsub");
        Path dir = tmp.resolve("pubsub");
        CommandRun run = QueueCommandTest.cli(db, "run", "--writers", "2", "--partitions", "2", "--readers", "1",
                "--write-batch", "10", "--read-batch", "50", "--payload", "16", "--throttle-writes", "500",
                "--duration", "2s", "--report-every", "1s", "--out", dir.toString());
        assertEquals(0, run.code(), run.err());
        withoutChecks(dir);

        CommandRun check = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, check.code(), check.out() + check.err());
        assertTrue(check.out().contains("Delivery: PASS (0 lost, 0 duplicates"), check.out());
        for (String name : List.of(DeliveryChecks.WRITTEN, DeliveryChecks.LOST, DeliveryChecks.DUPLICATES,
                DeliveryChecks.OFFSETS)) {
            assertEquals(Check.Status.PASS, checked(dir, name).status(), checked(dir, name).detail());
            assertTrue(Files.readString(dir.resolve("report.md")).contains(name), name + " in report.md");
        }

        // The driver killed with each client's last commit in flight: the tables hold it, the ledger does not.
        truncate(dir.resolve(WriterLedger.FILE), 25); // a writer's last batch (25 bytes a batch)
        truncate(dir.resolve(DeliveryLedger.FILE), 25); // the last read (25 bytes a read), its group's only reader's
        CommandRun unheard = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(1, unheard.code(), "a finished run's ledger holds every commit: " + unheard.out());
        assertTrue(unheard.err().contains(DeliveryChecks.WRITTEN) && unheard.err().contains(DeliveryChecks.OFFSETS),
                unheard.err());
        withParameter(dir, "stopReason", RecoveredRun.DRIVER_DIED);
        CommandRun died = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, died.code(), died.out() + died.err());
        assertTrue(died.out().contains("The driver died: its clients' last commits, sent and never heard back, are "
                + "settled against the tables, up to a batch of 10 from each of 2 writers and a read of 50 per group "
                + "and partition."), died.out());
        assertTrue(died.out().contains("read by a commit whose outcome the reader never heard, 10 written by a "
                + "commit whose outcome the writer never heard)"), died.out());
        assertTrue(checked(dir, DeliveryChecks.WRITTEN).detail().endsWith("; 1 batches whose commit's outcome the "
                + "writer never heard, 1 of them in the log"), checked(dir, DeliveryChecks.WRITTEN).detail());
        assertEquals(Check.Status.PASS, checked(dir, DeliveryChecks.OFFSETS).status());

        // The first batch written to partition 0, one message of it lost from the log since: a dead driver's ledger
        // still refutes that nothing was lost.
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("DELETE FROM log_p0 WHERE msg_offset = 0"));
        }
        CommandRun refuted = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(1, refuted.code(), refuted.out() + refuted.err());
        Check written = checked(dir, DeliveryChecks.WRITTEN);
        assertEquals(Check.Status.FAIL, written.status(), written.detail());
        assertTrue(written.detail().contains("partition 0 offsets 0-9 (10 messages, producer seq ")
                && written.detail().contains("1 of them missing"), written.detail());
        assertTrue(refuted.err().contains(DeliveryChecks.WRITTEN), refuted.err());

        Files.createDirectories(tmp.resolve("empty"));
        CommandRun none = QueueCommandTest.cli(db, "check", "--ledger", tmp.resolve("empty").toString());
        assertEquals(2, none.code(), none.out() + none.err());
        assertEquals(1, none.err().strip().lines().count(), none.err());
        assertTrue(none.err().contains(DeliveryLedger.FILE) && none.err().contains(AckLedger.FILE), none.err());
    }

    @Test
    void aWorkQueueRunsLedgerIsCheckedAfterTheRunAndAMessageLostSinceIsNamed(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_check_ledger_queue");
        Path dir = tmp.resolve("queue");
        CommandRun run = QueueCommandTest.cli(db, "run", "--mode", "queue", "--ack", "archive", "--writers", "2",
                "--readers", "2", "--write-batch", "10", "--read-batch", "20", "--payload", "16",
                "--throttle-writes", "500", "--duration", "2s", "--report-every", "1s", "--out", dir.toString());
        assertEquals(0, run.code(), run.err());
        withoutChecks(dir);

        CommandRun check = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, check.code(), check.out() + check.err());
        for (String name : List.of(DeliveryChecks.LOST, DeliveryChecks.DUPLICATES, QueueDeliveryChecks.PHANTOMS,
                QueueDeliveryChecks.ARCHIVED)) {
            assertEquals(Check.Status.PASS, checked(dir, name).status(), checked(dir, name).detail());
        }

        // One process's directory of a split run: its readers took every process's messages.
        assertNull(ResultFile.read(dir).parameters().get("worker"), "a whole run records no share");
        withParameter(dir, "worker", "1/2");
        CommandRun split = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(2, split.code(), split.out() + split.err());
        assertEquals(1, split.err().strip().lines().count(), split.err());
        assertTrue(split.err().contains("worker 1/2") && split.err().contains("queue_ledgers"), split.err());
        withParameter(dir, "worker", null);

        // The driver killed with commits in flight: an insert whose message was then acknowledged, and an
        // acknowledgement, both in the tables and neither in the ledger.
        long inserted = withoutAckRecords(db, dir);
        CommandRun unheard = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(1, unheard.code(), "a finished run's ledger holds every commit: " + unheard.out());
        assertEquals(Check.Status.FAIL, checked(dir, QueueDeliveryChecks.PHANTOMS).status());
        assertEquals(Check.Status.FAIL, checked(dir, DeliveryChecks.LOST).status());
        withParameter(dir, "stopReason", RecoveredRun.DRIVER_DIED);
        CommandRun died = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, died.code(), died.out() + died.err());
        assertTrue(died.out().contains("up to a batch of 10 from each of 2 writers and a read of 20 from each of 2 "
                + "readers."), died.out());
        assertTrue(died.out().contains(inserted + " written by a commit whose outcome the writer never heard)"),
                died.out());
        assertTrue(died.out().contains(" read by a commit whose outcome the reader never heard"), died.out());

        // The first message produced, lost since (waiting or archived, it is gone from both).
        long lost;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT min(id) FROM (SELECT id FROM queue_messages UNION ALL "
                    + "SELECT id FROM queue_archive) m")) {
                rs.next();
                lost = rs.getLong(1);
            }
            assertEquals(1, s.executeUpdate("DELETE FROM queue_messages WHERE id = " + lost)
                    + s.executeUpdate("DELETE FROM queue_archive WHERE id = " + lost));
        }
        CommandRun refuted = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(1, refuted.code(), refuted.out() + refuted.err());
        List<Check> failed = ResultFile.read(dir).checks().stream().filter(k -> k.status() == Check.Status.FAIL)
                .toList();
        assertTrue(failed.stream().anyMatch(k -> k.detail().contains("first id " + lost)),
                "id " + lost + " named: " + failed);

        // The same queue as --ack delete leaves it (acknowledged messages gone): an acknowledgement in flight leaves
        // no trace, so the messages it may have taken are neither lost nor delivered as far as anyone can tell.
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE queue_archive");
        }
        withParameter(dir, "ack", "delete");
        CommandRun deleted = QueueCommandTest.cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, deleted.code(), deleted.out() + deleted.err());
        Check notProven = checked(dir, DeliveryChecks.LOST);
        assertEquals(Check.Status.SKIP, notProven.status(), notProven.detail());
        assertTrue(notProven.detail().contains("neither proven nor refuted"), notProven.detail());
        assertTrue(deleted.out().contains("Delivery: NOT PROVEN (0 lost, "), deleted.out());
    }

    /** The last {@code bytes} of {@code file} cut off. */
    private static void truncate(Path file, int bytes) throws Exception {
        try (FileChannel f = FileChannel.open(file, StandardOpenOption.WRITE)) {
            f.truncate(f.size() - bytes);
        }
    }

    /**
     * The work queue's ledger in {@code dir} without the first insert whose messages are archived and the last
     * acknowledgement (13 bytes a record: kind, how many ids, the first); returns how many ids the insert had.
     */
    private static long withoutAckRecords(TestDatabase db, Path dir) throws Exception {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(AckLedger.FILE)));
        int insert = -1;
        int ack = -1;
        try (Connection c = db.connect(); PreparedStatement archived = c.prepareStatement(
                "SELECT count(*) FROM queue_archive WHERE id >= ? AND id < ? + ?")) {
            for (int at = 0; at + 13 <= all.limit(); at += 13) {
                if (all.get(at) == AckLedger.Kind.ACKED.code()) {
                    ack = at;
                } else if (insert < 0 && all.get(at) == AckLedger.Kind.PRODUCED.code()) {
                    archived.setLong(1, all.getLong(at + 5));
                    archived.setLong(2, all.getLong(at + 5));
                    archived.setLong(3, all.getInt(at + 1));
                    try (ResultSet rs = archived.executeQuery()) {
                        rs.next();
                        insert = rs.getLong(1) == all.getInt(at + 1) ? at : -1;
                    }
                }
            }
        }
        assertTrue(insert >= 0 && ack >= 0, "an archived insert and an acknowledgement in the ledger");
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        for (int at = 0; at + 13 <= all.limit(); at += 13) {
            if (at != insert && at != ack) {
                kept.write(all.array(), at, 13);
            }
        }
        Files.write(dir.resolve(AckLedger.FILE), kept.toByteArray());
        return all.getInt(insert + 1);
    }

    /** The run's result without its checks, as a result recovered after the driver died has none. */
    static void withoutChecks(Path dir) throws Exception {
        RunResult r = ResultFile.read(dir);
        ResultFile.write(r.toBuilder().checks(List.of()).build(), dir.resolve(ResultFile.NAME));
    }

    /** The run's result with parameter {@code name} set to {@code value} (null: removed). */
    static void withParameter(Path dir, String name, Object value) throws Exception {
        RunResult r = ResultFile.read(dir);
        Map<String, Object> p = new LinkedHashMap<>(r.parameters());
        if (value == null) {
            p.remove(name);
        } else {
            p.put(name, value);
        }
        ResultFile.write(r.toBuilder().parameters(p).build(), dir.resolve(ResultFile.NAME));
    }

    static Check checked(Path dir, String name) {
        return ResultFile.read(dir).checks().stream().filter(k -> k.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + dir.resolve(ResultFile.NAME)));
    }
}

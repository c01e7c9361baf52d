package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.run.ClientId;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.Role;
import dev.gauntlet.core.run.RunClock;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.WorkQueueWorkload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The work queue against a real PostgreSQL: competing readers share the messages in every ack mode, and delivery
 * verification catches a lost message and a redelivered one.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class WorkQueueTest {

    private static final int PAYLOAD = 100;

    /** A run of 2 open-loop writers (10 per batch, 1,000 msg/s) and {@code readers} competing readers, for 3 s. */
    private static RunRecord runWith(TestDatabase db, AckMode mode, int readers, Workload<Connection> workload,
                                     Disruption disruption, Duration at) throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            QueueSchema.create(c, mode);
        }
        RunPlan.Builder plan = RunPlan.builder().role(Role.openLoop(PubSubWorkload.WRITERS, 2, 100))
                .role(Role.closedLoop(PubSubWorkload.READERS, readers)).duration(Duration.ofSeconds(3))
                .reportEvery(Duration.ofSeconds(1));
        if (disruption != null) {
            plan.disruption(disruption, at, null);
        }
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()))) {
            return new Runner<>(plan.build(), workload, target, RunListener.NONE, null).run();
        }
    }

    private static WorkQueueWorkload workload(AckMode mode, int readBatch, AckLedger ledger) {
        return new WorkQueueWorkload(10, readBatch, PAYLOAD, Duration.ofMillis(1), mode, ledger);
    }

    /** {@code workload} with each reader's first poll held back by {@code hold}: a backlog builds meanwhile. */
    private static Workload<Connection> readersHeldBack(Workload<Connection> workload, Duration hold) {
        return new Workload<>() {
            @Override
            public List<String> operationNames() {
                return workload.operationNames();
            }

            @Override
            public ClientScript<Connection> client(ClientId client, SplittableRandom random) {
                ClientScript<Connection> script = workload.client(client, random);
                if (!PubSubWorkload.READERS.equals(client.role())) {
                    return script;
                }
                boolean[] first = {true};
                return () -> {
                    Step<Connection> step = script.next();
                    if (first[0]) {
                        first[0] = false;
                        return new Step<>(step.operation(), hold.toNanos());
                    }
                    return step;
                };
            }
        };
    }

    /** In a disruption's statement, replaced by the time it runs as RunClock epoch nanos (a message's produced_at). */
    private static final String NOW = ":now";

    /** A disruption running one statement; {@code RETURNING id} statements leave the id in {@code id}. */
    private static Disruption sql(String name, String statement, TestDatabase db, AtomicLong id) {
        return new Disruption() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(Log log) throws Exception {
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    c.setAutoCommit(true);
                    int rows = 0;
                    String sql = statement.replace(NOW, Long.toString(RunClock.epochNanos(System.nanoTime())));
                    try (ResultSet rs = s.executeQuery(sql)) {
                        while (rs.next()) {
                            id.set(rs.getLong(1));
                            rows++;
                        }
                    }
                    log.note(name + ": " + rows + " row(s)");
                }
            }
        };
    }

    private static long counter(RunRecord run, String operation, String counter) {
        return run.operations().stream().filter(o -> o.name().equals(operation)).findFirst()
                .map(o -> o.counter(counter)).orElse(0L);
    }

    private static long count(TestDatabase db, String sql) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Check check(DeliveryChecks.Delivery d, String name) {
        return d.checks().stream().filter(k -> k.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check '" + name + "' in " + d.checks()));
    }

    @ParameterizedTest
    @EnumSource(AckMode.class)
    void competingReadersShareEveryMessageOnce(AckMode mode, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_" + mode.label());
        AckLedger ledger = new AckLedger();
        RunRecord run = runWith(db, mode, 4, workload(mode, 50, ledger), null, null);
        assertNull(run.fatalError(), run.fatalError());
        DeliveryChecks.Delivery d;
        try (Connection c = db.connect()) {
            d = QueueDeliveryChecks.run(c, ledger, mode);
        }
        for (Check c : d.checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
        assertEquals(4, d.checks().size(), d.checks().toString());
        assertTrue(d.line().startsWith("Delivery: PASS (0 lost, 0 duplicates, "), d.line());

        AckLedger.Tally t;
        try (Connection c = db.connect()) {
            t = ledger.tally(c);
        }
        long written = counter(run, WorkQueueWorkload.WRITE, "messages");
        long read = counter(run, WorkQueueWorkload.READ, "messages");
        assertTrue(t.acked() > 0, "something was acknowledged");
        assertEquals(written, t.produced(), "the ledger holds every committed write");
        assertEquals(read, t.acknowledgements(), "the ledger holds every committed read");
        assertEquals(written - d.backlog(), read, "read = written - not yet consumed");
        assertEquals(read * PAYLOAD, counter(run, WorkQueueWorkload.READ, "bytes"));
        assertTrue(run.observations().containsKey("endToEnd"), "end-to-end latency per message");
        assertTrue(run.gauges().containsKey("lagMillis"), "lag of the oldest message claimed");
        if (mode == AckMode.ARCHIVE) {
            assertEquals(t.acked(), count(db, "SELECT count(*) FROM queue_archive"));
        }
        if (mode == AckMode.FLAG) {
            assertEquals(written, count(db, "SELECT count(*) FROM queue_messages"), "flagged rows stay");
        } else {
            assertEquals(d.backlog(), count(db, "SELECT count(*) FROM queue_messages"), "only the backlog is left");
        }
    }

    @ParameterizedTest
    @EnumSource(AckMode.class)
    void aMessageDeletedBeforeItWasReadIsReportedLost(AckMode mode, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_lost_" + mode.label());
        AckLedger ledger = new AckLedger();
        AtomicLong deleted = new AtomicLong(-1);
        // The readers start at 2 s, so at 1 s every committed message is still unread.
        RunRecord run = runWith(db, mode, 4, readersHeldBack(workload(mode, 50, ledger), Duration.ofSeconds(2)),
                sql("delete the newest message", "DELETE FROM queue_messages WHERE id = "
                        + "(SELECT max(id) FROM queue_messages) RETURNING id", db, deleted), Duration.ofSeconds(1));
        assertNull(run.fatalError(), run.fatalError());
        assertTrue(run.disruptions().get(0).notes().toString().contains("1 row(s)"), run.disruptions().toString());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, mode);
            assertEquals(1, d.lost(), d.line());
            assertEquals(0, d.duplicates(), d.line());
            assertTrue(d.line().startsWith("Delivery: FAIL (1 lost, 0 duplicates"), d.line());
            Check lost = check(d, DeliveryChecks.LOST);
            assertEquals(Check.Status.FAIL, lost.status());
            assertTrue(lost.detail().endsWith("first id " + deleted.get()), lost.detail());
            assertEquals(Check.Status.PASS, check(d, QueueDeliveryChecks.agreement(mode)).status(), d.checks().toString());
        }
    }

    /**
     * After 1.5 s the first message has long been acknowledged (the readers keep up, taking the lowest ids first);
     * the disruption puts it back up for delivery: re-inserted under its id, or un-flagged.
     */
    @ParameterizedTest
    @EnumSource(value = AckMode.class, names = {"DELETE", "FLAG"})
    void aMessageDeliveredTwiceIsCountedAsADuplicate(AckMode mode, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_twice_" + mode.label());
        AckLedger ledger = new AckLedger();
        String redeliver = mode == AckMode.FLAG
                ? "UPDATE queue_messages SET acked_at = NULL WHERE id = "
                        + "(SELECT min(id) FROM queue_messages WHERE acked_at IS NOT NULL) RETURNING id"
                : "INSERT INTO queue_messages (id, produced_at, payload) OVERRIDING SYSTEM VALUE "
                        + "SELECT 1, " + NOW + ", decode(repeat('00', " + PAYLOAD + "), 'hex') "
                        + "WHERE NOT EXISTS (SELECT 1 FROM queue_messages WHERE id = 1) RETURNING id";
        AtomicLong again = new AtomicLong(-1);
        RunRecord run = runWith(db, mode, 4, workload(mode, 50, ledger),
                sql("redeliver an acknowledged message", redeliver, db, again), Duration.ofMillis(1500));
        assertNull(run.fatalError(), run.fatalError());
        assertTrue(run.disruptions().get(0).notes().toString().contains("1 row(s)"), run.disruptions().toString());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, mode);
            assertEquals(0, d.lost(), d.line());
            assertEquals(1, d.duplicates(), d.line());
            assertTrue(d.line().startsWith("Delivery: FAIL (0 lost, 1 duplicates"), d.line());
            Check twice = check(d, DeliveryChecks.DUPLICATES);
            assertEquals(Check.Status.FAIL, twice.status());
            assertTrue(twice.detail().endsWith("first id " + again.get()), twice.detail());
            assertEquals(Check.Status.PASS, check(d, QueueDeliveryChecks.agreement(mode)).status(), d.checks().toString());
        }
    }

    /**
     * The archive's primary key refuses to archive a message twice: the redelivered message's acknowledgement fails
     * (a unique violation, which stops the run), so it is never counted twice; the check finds it both archived and
     * waiting in the queue.
     */
    @Test
    void theArchiveRefusesAMessageDeliveredTwice(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_twice_archive");
        AckLedger ledger = new AckLedger();
        RunRecord run = runWith(db, AckMode.ARCHIVE, 4, workload(AckMode.ARCHIVE, 50, ledger),
                sql("redeliver an archived message", "INSERT INTO queue_messages (id, produced_at, payload) "
                        + "OVERRIDING SYSTEM VALUE SELECT id, produced_at, payload FROM queue_archive WHERE id = 1 "
                        + "RETURNING id", db, new AtomicLong()), Duration.ofMillis(1500));
        assertTrue(run.disruptions().get(0).notes().toString().contains("1 row(s)"), run.disruptions().toString());
        assertTrue(run.failed() && run.fatalError().contains("queue_archive_pkey"), String.valueOf(run.fatalError()));
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, AckMode.ARCHIVE);
            assertEquals(0, d.duplicates(), d.line());
            assertEquals(0, d.lost(), d.line());
            Check archived = check(d, QueueDeliveryChecks.ARCHIVED);
            assertEquals(Check.Status.FAIL, archived.status());
            assertTrue(archived.detail().contains("still waiting in queue_messages, first id 1"), archived.detail());
        }
    }

    @Test
    void ackModesAreParsedAndAnUnknownOneNamesTheChoices() {
        assertEquals(AckMode.ARCHIVE, AckMode.parse("Archive"));
        assertEquals(AckMode.FLAG, AckMode.parse("flag"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AckMode.parse("purge"));
        for (String choice : List.of("purge", "delete", "archive", "flag")) {
            assertTrue(e.getMessage().contains(choice), e.getMessage());
        }
    }

    @Test
    void theLedgerTalliesDuplicatesPhantomsAndWhatIsLeft(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_tally");
        AckLedger ledger = new AckLedger();
        // Runs of consecutive ids in batches, a run cut where a batch ends, and ids out of order.
        long[] all = LongStream.range(1, 200_001).toArray();
        for (int from = 0; from < all.length; from += 999) {
            ledger.produced(java.util.Arrays.copyOfRange(all, from, Math.min(all.length, from + 999)));
        }
        ledger.acked(LongStream.range(1, 200_001).filter(id -> id != 7 && id != 150_000).toArray());
        ledger.acked(new long[] {42, 300_000, 42, 99});
        AckLedger.Tally t;
        try (Connection c = db.connect()) {
            t = ledger.tally(c);
        }
        assertEquals(200_000, t.produced());
        assertEquals(199_998 + 4, t.acknowledgements());
        assertEquals(199_998 + 1, t.acked(), "distinct ids acknowledged, the phantom included");
        assertEquals(2, t.duplicates(), "42 (three times) and 99");
        assertEquals(42, t.firstDuplicate());
        assertEquals(1, t.phantoms());
        assertEquals(300_000, t.firstPhantom());
        assertEquals(2, t.unacked(), "7 and 150,000");
        assertEquals(7, t.firstUnacked());
        assertEquals(0, t.reissued());
        assertEquals(-1, t.firstReissued());
    }

    /** How many commits' outcomes the run's clients never heard. */
    static long ambiguousCommits(RunRecord run) {
        return run.errors().stream().filter(e -> e.errorClass().equals(Failure.Kind.AMBIGUOUS_COMMIT.label()))
                .mapToLong(e -> e.count()).sum();
    }

    /** Inserts {@code n} messages as a writer would and returns their ids. */
    private static long[] enqueue(Connection c, int n) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("INSERT INTO queue_messages "
                + "(produced_at, payload) SELECT 0, '\\x00'::bytea FROM generate_series(1, " + n + ") RETURNING id")) {
            long[] ids = new long[n];
            for (int i = 0; i < n; i++) {
                rs.next();
                ids[i] = rs.getLong(1);
            }
            return ids;
        }
    }

    /** Acknowledges {@code ids} with {@code mode}'s statement, as a reader's poll does. */
    private static void ack(Connection c, AckMode mode, long... ids) throws Exception {
        try (var p = c.prepareStatement(mode.ackSql())) {
            p.setArray(1, dev.gauntlet.queue.workqueue.IdArrays.of(c, ids));
            assertEquals(ids.length, p.executeUpdate());
        }
    }

    /**
     * Reader A's acknowledgement of 1 and 2 lost its commit's outcome and did not take effect; reader B then claimed
     * and acknowledged them. They are B's, not A's as well: no duplicate. A's of 3 and C's of 3 both lost their
     * outcomes and one took effect: acknowledged once.
     */
    @ParameterizedTest
    @EnumSource(AckMode.class)
    void anUncertainAckOfMessagesAnotherReaderAcknowledgedIsNotCountedTwice(AckMode mode, TestDatabase server)
            throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_uncertain_ack_" + mode.label());
        AckLedger ledger = new AckLedger();
        try (Connection c = db.connect()) {
            QueueSchema.create(c, mode);
            long[] ids = enqueue(c, 4);
            assertArrayEquals(new long[] {1, 2, 3, 4}, ids);
            ledger.produced(ids);
            ledger.maybeAcked(new long[] {1, 2});
            ack(c, mode, 1, 2);
            ledger.acked(new long[] {1, 2});
            ack(c, mode, 3);
            ledger.maybeAcked(new long[] {3});
            ledger.maybeAcked(new long[] {3});

            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, mode);
            for (Check k : d.checks()) {
                assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail());
            }
            assertEquals(0, d.duplicates(), d.line());
            assertEquals(0, d.lost(), d.line());
            assertEquals(1, d.backlog(), "4 waits: " + d.line());
        }
    }

    /**
     * The same end to end: readers' acknowledgements wait at COMMIT and their sessions are ended before it lands;
     * the messages go back to the queue and other readers acknowledge them. Nothing was delivered twice.
     */
    @Test
    void anAckWhoseCommitDidNotLandIsNotCountedWhenAnotherReaderAcknowledges(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_ack_not_landed");
        AckLedger ledger = new AckLedger();
        RunRecord run = runWith(db, AckMode.DELETE, 4, workload(AckMode.DELETE, 50, ledger),
                LostCommitOutcomes.endedBeforeLanding(db, "queue_messages", "DELETE", 1), Duration.ofSeconds(1));
        assertNull(run.fatalError(), run.fatalError());
        String notes = run.disruptions().get(0).notes().toString();
        assertTrue(notes.contains("ended ") && !notes.contains("ended 0 "), notes);
        assertTrue(ambiguousCommits(run) > 0, "some acknowledgement's outcome was lost: " + run.errors());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, AckMode.DELETE);
            for (Check k : d.checks()) {
                assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail());
            }
            assertEquals(0, d.duplicates(), d.line());
        }
    }

    /**
     * A writer's insert waits at COMMIT for a synchronous standby that is not there and its session is ended: the
     * batch landed but the writer never heard. The readers acknowledge its messages: they were produced.
     */
    @Test
    void anEnqueueWhoseCommitLandedUnheardIsProducedWhenAcknowledged(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_enqueue_landed");
        AckLedger ledger = new AckLedger();
        Disruption lose = LostCommitOutcomes.endedAfterLanding(db, "queue_messages", "INSERT", 2);
        // The readers start at 2 s: at 1 s only the writers' commits wait.
        RunRecord run = runWith(db, AckMode.DELETE, 4, readersHeldBack(workload(AckMode.DELETE, 50, ledger),
                Duration.ofSeconds(2)), lose, Duration.ofSeconds(1));
        assertNull(run.fatalError(), run.fatalError());
        assertTrue(run.disruptions().get(0).notes().toString().contains("ended 2 session(s)"),
                run.disruptions().toString());
        assertTrue(ambiguousCommits(run) >= 2, "the writers never heard their commits' outcome: " + run.errors());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, AckMode.DELETE);
            for (Check k : d.checks()) {
                assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail());
            }
            assertEquals(0, d.lost(), d.line());
            assertTrue(ledger.count(AckLedger.Kind.ACKED) > 0, "the readers acknowledged messages");
        }
    }

    /**
     * An insert the writer heard commit is lost together with the id sequence's state (what a standby that missed
     * both holds after a failover): the next insert is given the same ids and its messages are acknowledged. Every
     * id was produced and acknowledged once, yet two messages are gone: "no message lost" FAILs naming them.
     */
    @Test
    void messagesLostWithTheirIdsAreFoundWhenALaterInsertIsGivenTheIdsAgain(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("workqueue_ids_reissued");
        AckLedger ledger = new AckLedger();
        try (Connection c = db.connect()) {
            QueueSchema.create(c, AckMode.DELETE);
            ledger.produced(enqueue(c, 4));
            try (Statement s = c.createStatement()) {
                assertEquals(2, s.executeUpdate("DELETE FROM queue_messages WHERE id >= 3"));
                s.execute("ALTER TABLE queue_messages ALTER COLUMN id RESTART WITH 3");
            }
            long[] again = enqueue(c, 2);
            assertArrayEquals(new long[] {3, 4}, again, "the lost messages' ids, given again");
            ledger.produced(again);
            ack(c, AckMode.DELETE, 1, 2, 3, 4);
            ledger.acked(new long[] {1, 2, 3, 4});

            DeliveryChecks.Delivery d = QueueDeliveryChecks.run(c, ledger, AckMode.DELETE);
            Check lost = d.checks().stream().filter(k -> k.name().equals(DeliveryChecks.LOST)).findFirst()
                    .orElseThrow();
            assertEquals(Check.Status.FAIL, lost.status(), lost.detail());
            assertEquals("2 whose id a later committed insert was given again (the first insert was lost with the id "
                    + "sequence's state), first id 3", lost.detail());
            assertEquals(2, d.lost(), d.line());
        }
    }
}

package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Condition;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.PhasePlan;
import dev.gauntlet.core.run.Role;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pub/sub against a real PostgreSQL: figures, and delivery verification that passes and that can fail. */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class PubSubTest {


    /** Readers fewer than, as many as and more than the partitions (2). */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void everyGroupReadsEveryMessageInOrderWhateverTheNumberOfReaders(int readers, TestDatabase server,
                                                                     @TempDir Path tmp) {
        TestDatabase db = server.freshDatabase("queue_readers_" + readers);
        Path out = tmp.resolve("run");
        CommandRun run = QueueCommandTest.cli(db, "run", "--writers", "2", "--partitions", "2", "--consumer-groups", "2", "--readers",
                String.valueOf(readers), "--write-batch", "10", "--read-batch", "50", "--payload", "100",
                "--throttle-writes", "1000", "--duration", "3s", "--report-every", "1s", "--out", out.toString());
        assertEquals(0, run.code(), run.err());
        RunResult r = ResultFile.read(out);
        for (Check c : r.checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
        long written = r.operation(PubSubWorkload.WRITE).orElseThrow().counter("messages");
        assertTrue(written > 1000, "about 1000 msg/s for 3 s: " + written);
        for (int g = 0; g < 2; g++) {
            long read = r.operation(PubSubWorkload.readOperation(g)).orElseThrow().counter("messages");
            assertTrue(read > written / 2, "group " + (g + 1) + " read " + read + " of " + written);
        }
        double mib = r.metrics().get("writeMiBPerSecond");
        assertEquals(written * 100 / (double) (1 << 20) / r.measuredSeconds(), mib, 1e-9, "MiB/s over measured time");
        assertTrue(r.observations().containsKey("endToEnd"), "end-to-end latency per message");
        if (readers > 2) {
            long empty = r.operation(PubSubWorkload.readOperation(0)).orElseThrow().counter("emptyPolls");
            assertTrue(empty > 0, "a third reader of two partitions stands by, finding both taken");
        }
    }

    private static RunRecord runWith(TestDatabase db, DeliveryLedger ledger, Disruption disruption) throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            LogSchema.create(c, 1, 1);
        }
        // One reader of batches of 2 behind writers of 2,000 msg/s; the disruption at 1 s.
        PubSubWorkload w = new PubSubWorkload(1, 1, 1, 20, 2, 16, Duration.ofMillis(1), ledger);
        RunPlan plan = RunPlan.builder().role(Role.openLoop(PubSubWorkload.WRITERS, 2, 100))
                .role(Role.closedLoop(PubSubWorkload.READERS, 1)).duration(Duration.ofSeconds(3))
                .reportEvery(Duration.ofSeconds(1)).disruption(disruption, Duration.ofSeconds(1), null).build();
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()))) {
            return new Runner<>(plan, w, target, RunListener.NONE, null).run();
        }
    }

    private static Disruption sql(String name, String statement, TestDatabase db) {
        return new Disruption() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(Log log) throws Exception {
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    c.setAutoCommit(true);
                    log.note(name + ": " + s.executeUpdate(statement) + " row(s)");
                }
            }
        };
    }

    /**
     * Deletes the message group 1 reads next, provably unread: its offset row is held (the reader skips it meanwhile)
     * while the message, once written, is deleted, so the reader later finds a hole where it was.
     */
    private static Disruption deleteTheNextUnread(TestDatabase db) {
        return new Disruption() {
            @Override
            public String name() {
                return "delete the next unread message";
            }

            @Override
            public void start(Log log) throws Exception {
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    c.setAutoCommit(false);
                    long next;
                    try (var rs = s.executeQuery("SELECT next_offset FROM consumer_offsets WHERE grp = 0 AND "
                            + "partition = 0 FOR UPDATE")) {
                        rs.next();
                        next = rs.getLong(1);
                    }
                    int deleted = 0;
                    for (int tries = 0; deleted == 0 && tries < 1000; tries++) { // writers add 2,000 msg/s
                        deleted = s.executeUpdate("DELETE FROM log_p0 WHERE msg_offset = " + next);
                        if (deleted == 0) {
                            Thread.sleep(5);
                        }
                    }
                    c.commit();
                    log.note(deleted == 1 ? "deleted offset " + next : "offset " + next + " was never written");
                }
            }
        };
    }

    @Test
    void aMessageDeletedBeforeItWasReadIsReportedLost(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("queue_lost");
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        RunRecord run = runWith(db, ledger, deleteTheNextUnread(db));
        assertTrue(run.disruptions().get(0).notes().toString().contains("deleted offset"), run.disruptions().toString());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = DeliveryChecks.run(c, ledger);
            assertEquals(1, d.lost(), d.line());
            assertEquals(0, d.duplicates(), d.line());
            assertTrue(d.line().startsWith("Delivery: FAIL (1 lost, 0 duplicates"), d.line());
        }
    }

    @Test
    void aMessageDeliveredTwiceIsCounted(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("queue_twice");
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        runWith(db, ledger, sql("rewind group 1 by 5", "UPDATE consumer_offsets SET next_offset = next_offset - 5 "
                + "WHERE grp = 0 AND partition = 0 AND next_offset >= 5", db));
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = DeliveryChecks.run(c, ledger);
            assertEquals(0, d.lost(), d.line());
            assertEquals(5, d.duplicates(), d.line());
            assertTrue(d.checks().stream().anyMatch(k -> k.name().equals(DeliveryChecks.DUPLICATES)
                    && k.status() == Check.Status.FAIL), d.checks().toString());
        }
    }

    /** One partition, one group, one reader that keeps up, writers at 200 msg/s, with a disruption at 1 s. */
    private static RunRecord keepingUp(TestDatabase db, DeliveryLedger ledger, Disruption disruption, Duration length,
                                       Duration runLength) throws Exception {
        return keepingUp(db, ledger, disruption, length, runLength, null);
    }

    /** As above; with {@code until}, the run ends when it holds, {@code runLength} then its limit. */
    private static RunRecord keepingUp(TestDatabase db, DeliveryLedger ledger, Disruption disruption, Duration length,
                                       Duration runLength, Condition until) throws Exception {
        try (Connection c = db.connect()) {
            LogSchema.create(c, 1, 1);
        }
        PubSubWorkload w = new PubSubWorkload(1, 1, 1, 10, 500, 16, Duration.ofMillis(2), ledger);
        RunPlan plan = RunPlan.builder().role(Role.closedLoop(PubSubWorkload.READERS, 1))
                .role(Role.openLoop(PubSubWorkload.WRITERS, 2, 20).startingAfter(PubSubWorkload.READERS))
                .phase(until == null ? PhasePlan.measured("run", runLength)
                        : PhasePlan.measured("run", runLength).until(until))
                .reportEvery(Duration.ofSeconds(1))
                .disruption(disruption, Duration.ofSeconds(1), length).build();
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()))) {
            return new Runner<>(plan, w, target, RunListener.NONE, null).run();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"connections killed", "server restarted"})
    void offsetsSurviveLostConnectionsAndARestart(String what, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("queue_survive_" + (what.startsWith("server") ? "restart" : "kill"));
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        java.util.concurrent.atomic.AtomicBoolean disrupted = new java.util.concurrent.atomic.AtomicBoolean();
        Disruption d = new Disruption() {
            @Override
            public String name() {
                return what.replace(' ', '-');
            }

            @Override
            public void start(Log log) throws Exception {
                if (what.startsWith("server")) {
                    db.restart(true);
                    disrupted.set(true);
                    return;
                }
                try (Connection c = db.connect(); Statement s = c.createStatement()) {
                    var rs = s.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            + "WHERE datname = current_database() AND pid <> pg_backend_pid()");
                    rs.next();
                    log.note(rs.getLong(1) + " sessions ended");
                }
                disrupted.set(true);
            }
        };
        // A restart takes from one to many seconds on a busy machine: the run ends once 300 messages were read after
        // the disruption, within a minute.
        Condition readingResumed = new Condition() {
            private long readSince;

            @Override
            public void observe(Interval closed) {
                IntervalOperation read = closed.operations().get(PubSubWorkload.readOperation(0));
                if (disrupted.get() && read != null && read.counters() != null) {
                    readSince += read.counters().getOrDefault("messages", 0L);
                }
            }

            @Override
            public boolean holds(Duration inPhase) {
                return readSince > 300;
            }
        };
        RunRecord run = keepingUp(db, ledger, d, null, Duration.ofSeconds(60), readingResumed);
        assertEquals("done", run.disruptions().get(0).outcome(), run.disruptions().toString());
        assertTrue(run.errors().stream().anyMatch(e -> e.count() > 0), "clients saw their connections go: "
                + run.errors());
        long read = run.operations().stream().filter(o -> o.name().equals(PubSubWorkload.readOperation(0)))
                .findFirst().orElseThrow().counter("messages");
        assertTrue(read > 300, "reading went on after the disruption: " + read);
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery delivery = DeliveryChecks.run(c, ledger);
            assertTrue(delivery.passed(), delivery.line() + " " + delivery.checks());
            assertEquals(0, delivery.lost(), delivery.line());
            assertEquals(0, delivery.duplicates(), delivery.line());
        }
    }

    @Test
    void endToEndLatencyCountsTheTimeAMessageWasHeldBack(TestDatabase server) throws Exception {
        // For 1 s the group's offset row is locked by another session: the reader finds it taken (SKIP LOCKED) and
        // messages wait. The first held back waited about the whole second, from its producer's timestamp.
        TestDatabase db = server.freshDatabase("queue_held_back");
        Connection[] holder = new Connection[1];
        Disruption hold = new Disruption() {
            @Override
            public String name() {
                return "hold-offsets";
            }

            @Override
            public void start(Log log) throws Exception {
                holder[0] = db.connect();
                holder[0].setAutoCommit(false);
                try (Statement s = holder[0].createStatement()) {
                    s.executeQuery("SELECT * FROM consumer_offsets FOR UPDATE").close();
                }
            }

            @Override
            public void stop(Log log) throws Exception {
                holder[0].commit();
                holder[0].close();
            }
        };
        RunRecord run = keepingUp(db, new DeliveryLedger(1, 1), hold, Duration.ofSeconds(1), Duration.ofSeconds(3));
        var e2e = run.observations().get("endToEnd").latencyMs();
        assertTrue(e2e.max() >= 900, "a message produced as the hold began waited about 1 s: max " + e2e.max());
        assertTrue(e2e.max() < 2500, "and not much more: max " + e2e.max());
        assertTrue(e2e.p50() < 900, "most messages were not held back: p50 " + e2e.p50());
    }

    /**
     * One partition, one group: {@code w}'s writers (2 at 20 batches of 10 a second) alone, or with one reader that
     * keeps up started first, and a retention client when the workload retains; a disruption at 1 s when given.
     */
    static RunRecord runOnOnePartition(TestDatabase db, PubSubWorkload w, boolean readers, boolean retains,
                                       Disruption disruption, Duration length) throws Exception {
        List<Role> roles = new ArrayList<>();
        Role writers = Role.openLoop(PubSubWorkload.WRITERS, 2, 20);
        if (readers) {
            roles.add(Role.closedLoop(PubSubWorkload.READERS, 1));
            writers = writers.startingAfter(PubSubWorkload.READERS);
        }
        roles.add(writers);
        if (retains) {
            roles.add(Role.closedLoop(PubSubWorkload.RETENTION, 1));
        }
        RunPlan.Builder plan = RunPlan.builder().roles(roles).duration(length).reportEvery(Duration.ofSeconds(1));
        if (disruption != null) {
            plan.disruption(disruption, Duration.ofSeconds(1), null);
        }
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()))) {
            RunRecord run = new Runner<>(plan.build(), w, target, RunListener.NONE, null).run();
            assertEquals(null, run.fatalError(), run.fatalError());
            return run;
        }
    }

    private static long tip(TestDatabase db) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT next_offset FROM log_tip WHERE partition = 0")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * A failover to a standby that missed the last batch the writers heard commit: its messages and its tip update
     * are gone, so the writers that go on take its offsets again and the log stays gapless, and the group reads
     * what is there without a hole. Only the writers' ledger can tell: the batch is named.
     */
    @ParameterizedTest
    @ValueSource(strings = {"none", "consumed"})
    void aBatchLostWithItsTipUpdateIsNamedThoughItsOffsetsWereWrittenAgain(String retention, TestDatabase server)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_lost_batch_" + retention);
        try (Connection c = db.connect()) {
            LogSchema.create(c, 1, 1);
        }
        boolean retains = retention.equals("consumed");
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        PubSubWorkload w = new PubSubWorkload(new WorkerShare.Range(0, 1), 1, 1, 10, 500, 16, Duration.ofMillis(2),
                ledger, retains ? Duration.ofMillis(200) : null);
        runOnOnePartition(db, w, false, false, null, Duration.ofSeconds(1));
        long tip = tip(db);
        assertTrue(tip >= 100 && tip % 10 == 0, "batches of 10 written for 1 s: " + tip);
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            assertEquals(10, s.executeUpdate("DELETE FROM log_p0 WHERE msg_offset >= " + (tip - 10)));
            s.executeUpdate("UPDATE log_tip SET next_offset = " + (tip - 10) + " WHERE partition = 0");
        }
        runOnOnePartition(db, w, true, retains, null, Duration.ofSeconds(2));
        assertTrue(tip(db) > tip, "the offsets of the lost batch were written again: tip " + tip(db));
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = DeliveryChecks.run(c, ledger);
            assertFalse(d.passed(), d.line() + " " + d.checks());
            String batch = "partition 0 offsets " + (tip - 10) + "-" + (tip - 1) + " (10 messages, producer seq ";
            assertTrue(d.checks().stream().anyMatch(k -> k.status() == Check.Status.FAIL
                    && k.detail().contains(batch)), "the lost batch named (" + batch + "...): " + d.checks());
            assertEquals(0, d.lost(), "the readers found no hole: " + d.line());
            assertEquals(0, d.duplicates(), d.line());
        }
    }
}

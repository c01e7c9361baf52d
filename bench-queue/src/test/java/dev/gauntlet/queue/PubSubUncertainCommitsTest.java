package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pub/sub commits whose outcome never reached their client, on a real PostgreSQL that lost it: a writer's batch and
 * a retention run, each landed and not. The writers' ledger expects such a batch neither way and counts each message
 * retention deleted once, so delivery passes in all four.
 */
@ExtendWith(PostgresExtension.class)
class PubSubUncertainCommitsTest {

    private static DeliveryChecks.Delivery verified(TestDatabase db, DeliveryLedger ledger, RunRecord run)
            throws Exception {
        String notes = run.disruptions().get(0).notes().toString();
        assertTrue(notes.contains("ended ") && !notes.contains("ended 0 "), notes);
        assertTrue(WorkQueueTest.ambiguousCommits(run) > 0, "a commit's outcome was lost: " + run.errors());
        try (Connection c = db.connect()) {
            DeliveryChecks.Delivery d = DeliveryChecks.run(c, ledger);
            assertTrue(d.passed(), d.line() + " " + d.checks());
            return d;
        }
    }

    private static Check written(DeliveryChecks.Delivery d) {
        return d.checks().stream().filter(k -> k.name().equals(DeliveryChecks.WRITTEN)).findFirst().orElseThrow();
    }

    /**
     * A writer's batch whose commit's outcome was lost: landed (in the log, counted) or not (the next batch took its
     * offsets). The two writers of the one partition take turns at its tip row, so one is held at COMMIT at a time.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aBatchWhoseCommitOutcomeWasLostIsExpectedNeitherWay(boolean landed, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("queue_unknown_write_" + (landed ? "landed" : "not_landed"));
        try (Connection c = db.connect()) {
            LogSchema.create(c, 1, 1);
        }
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        PubSubWorkload w = new PubSubWorkload(1, 1, 1, 10, 500, 16, Duration.ofMillis(2), ledger);
        Disruption lose = landed ? LostCommitOutcomes.endedAfterLanding(db, "log_p0", "INSERT", 1)
                : LostCommitOutcomes.endedBeforeLanding(db, "log_p0", "INSERT", 1);
        DeliveryChecks.Delivery d = verified(db, ledger,
                PubSubTest.runOnOnePartition(db, w, true, false, lose, Duration.ofSeconds(3)));
        assertEquals(10, d.uncertainWrites(), "one batch of 10: " + d.line());
        assertTrue(d.line().contains("10 written by a commit whose outcome the writer never heard"), d.line());
        assertTrue(written(d).detail().endsWith("; 1 batches whose commit's outcome the writer never heard, "
                + (landed ? 1 : 0) + " of them in the log"), written(d).detail());
    }

    /**
     * A retention run whose commit's outcome was lost: it deleted what every group had read (landed), or it did not
     * and the next run deletes the same messages again. Either way each is verified once.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRetentionWhoseCommitOutcomeWasLostCountsWhatItDeletedOnce(boolean landed, TestDatabase server)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_unknown_retain_" + (landed ? "landed" : "not_landed"));
        try (Connection c = db.connect()) {
            LogSchema.create(c, 1, 1);
        }
        DeliveryLedger ledger = new DeliveryLedger(1, 1);
        PubSubWorkload w = new PubSubWorkload(new WorkerShare.Range(0, 1), 1, 1, 10, 500, 16, Duration.ofMillis(2),
                ledger, Duration.ofMillis(200));
        Disruption lose = landed ? LostCommitOutcomes.endedAfterLanding(db, "log_retention", "UPDATE", 1)
                : LostCommitOutcomes.endedBeforeLanding(db, "log_retention", "UPDATE", 1);
        DeliveryChecks.Delivery d = verified(db, ledger,
                PubSubTest.runOnOnePartition(db, w, true, true, lose, Duration.ofSeconds(3)));
        assertTrue(written(d).detail().matches("[0-9,]+ batches \\([0-9,]+ messages\\) at their offsets"),
                written(d).detail());
    }
}

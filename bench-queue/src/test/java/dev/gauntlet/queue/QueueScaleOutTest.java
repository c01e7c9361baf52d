package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.report.ResultMerge;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.LedgerStore;
import dev.gauntlet.queue.workqueue.WorkQueueWorkload;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One queue run split over two processes as the Kubernetes Indexed Job splits it ({@code --worker 0/2} and
 * {@code 1/2}, one {@code --start-at}): worker 0 creates the tables and the other waits for them; pub/sub splits the
 * partitions, each process verifying its own; the work queue's readers compete for both processes' messages and
 * worker 0 verifies delivery over both ledgers.
 */
@ExtendWith(PostgresExtension.class)
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
@Tag("long")
class QueueScaleOutTest {

    /**
     * A thread per driver process: they must run at once (worker 0 waits for the others), which the common pool does
     * not promise on a small machine.
     */
    private static final java.util.concurrent.Executor PROCESSES =
            java.util.concurrent.Executors.newCachedThreadPool();

    private static List<RunResult> split(TestDatabase db, Path tmp, String... args) throws Exception {
        String startAt = Instant.now().plusSeconds(12).toString();
        List<CompletableFuture<CommandRun>> runs = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            List<String> all = new ArrayList<>(List.of(args));
            // No priming, as no warm-up: the tests compare what is in the database with the measured counts.
            all.addAll(List.of("--worker", w + "/2", "--start-at", startAt, "--prime", "0s", "--duration", "3s",
                    "--report-every", "1s", "--seed", "3", "--out", tmp.resolve("w" + w).toString()));
            runs.add(CompletableFuture.supplyAsync(() -> QueueCommandTest.cli(db, "run", all.toArray(String[]::new)),
                    PROCESSES));
        }
        List<RunResult> results = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            CommandRun run = runs.get(w).get();
            assertEquals(0, run.code(), "worker " + w + ": " + run.err());
            results.add(ResultFile.read(tmp.resolve("w" + w)));
        }
        return results;
    }

    private static long messages(RunResult r, String operation) {
        return r.operation(operation).orElseThrow().counter("messages");
    }

    @Test
    void pubSubWorkersEachWriteReadAndVerifyTheirOwnPartitions(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_split_pubsub");
        List<RunResult> w = split(db, tmp, "--partitions", "2", "--consumer-groups", "2", "--writers", "2",
                "--readers", "2", "--write-batch", "10", "--read-batch", "50", "--payload", "64", "--throttle-writes",
                "1000");
        for (int i = 0; i < 2; i++) {
            RunResult r = w.get(i);
            assertEquals(i + "/2", r.parameters().get("worker"));
            assertEquals("p" + i, r.parameters().get("partitionsHere"));
            assertEquals(1, r.roles().stream().filter(role -> role.name().equals(PubSubWorkload.WRITERS)).findFirst()
                    .orElseThrow().clients(), "one of the two writers");
            List<String> names = r.checks().stream().map(Check::name).toList();
            String own = "log_p" + i + " ";
            String other = "log_p" + (1 - i) + " ";
            assertTrue(names.stream().anyMatch(n -> n.startsWith(own)), names.toString());
            assertFalse(names.stream().anyMatch(n -> n.startsWith(other)),
                    "the other worker's partition is the other's to check: " + names);
            assertTrue(names.contains(DeliveryChecks.WRITTEN), "its writers' batches checked against its partition: "
                    + names);
            for (Check c : r.checks()) {
                assertEquals(Check.Status.PASS, c.status(), "worker " + i + " " + c.name() + ": " + c.detail());
            }
            long written = messages(r, PubSubWorkload.WRITE);
            assertTrue(written > 600, "about 500 msg/s each for 3 s: " + written);
            assertEquals(1000 / 2.0 / 10, r.roles().stream().filter(role -> role.name().equals(PubSubWorkload.WRITERS))
                    .findFirst().orElseThrow().rate(), 1e-9, "half the batches per second");
        }
        try (Connection c = db.connect(); var s = c.createStatement();
             var rs = s.executeQuery("SELECT sum(next_offset) FROM log_tip")) {
            rs.next();
            assertEquals(messages(w.get(0), PubSubWorkload.WRITE) + messages(w.get(1), PubSubWorkload.WRITE),
                    rs.getLong(1), "every message in the log was written by one of the two (warm-up none)");
        }
        RunResult merged = ResultMerge.merge(w);
        assertEquals("0,1/2", merged.parameters().get("worker"));
        assertEquals(messages(w.get(0), PubSubWorkload.WRITE) + messages(w.get(1), PubSubWorkload.WRITE),
                messages(merged, PubSubWorkload.WRITE));
        assertEquals(Check.Status.PASS, merged.checkStatus());
    }

    @Test
    void workQueueReadersCompeteForEveryProcesssMessagesAndWorkerZeroVerifiesThemAll(TestDatabase server,
                                                                                      @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_split_queue");
        List<RunResult> w = split(db, tmp, "--mode", "queue", "--ack", "archive", "--writers", "2", "--readers", "4",
                "--write-batch", "10", "--read-batch", "20", "--payload", "64", "--throttle-writes", "1000");
        long produced = messages(w.get(0), WorkQueueWorkload.WRITE) + messages(w.get(1), WorkQueueWorkload.WRITE);
        long acked = messages(w.get(0), WorkQueueWorkload.READ) + messages(w.get(1), WorkQueueWorkload.READ);
        Check lost = w.get(0).checks().stream().filter(c -> c.name().equals(DeliveryChecks.LOST)).findFirst()
                .orElseThrow();
        assertEquals(Check.Status.PASS, lost.status(), lost.detail());
        assertTrue(lost.detail().contains(String.format(java.util.Locale.ROOT, "of %,d produced", produced)),
                "worker 0 verifies both processes' messages (" + produced + "): " + lost.detail());
        for (Check c : w.get(0).checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
        assertTrue(w.get(1).checks().stream().noneMatch(c -> c.name().equals(DeliveryChecks.LOST)),
                "worker 1 leaves delivery to worker 0: " + w.get(1).checks());

        // Each process's readers took messages the other produced: with its own ledger alone, neither would pass.
        try (Connection c = db.connect()) {
            assertEquals(produced, LedgerStore.stored(c, AckLedger.Kind.PRODUCED));
            assertEquals(acked, LedgerStore.stored(c, AckLedger.Kind.ACKED));
        }
        RunResult merged = ResultMerge.merge(w);
        assertEquals(Check.Status.PASS, merged.checkStatus());
        assertEquals(produced, messages(merged, WorkQueueWorkload.WRITE));
    }

    @Test
    void aSplitTheQueueCannotMakeIsOneLine(TestDatabase server) {
        TestDatabase db = server.freshDatabase("queue_split_refused");
        String soon = Instant.now().plusSeconds(60).toString();
        for (String[] bad : List.of(new String[] {"--worker", "1/2"},
                new String[] {"--worker", "1/2", "--start-at", soon, "--partitions", "1"},
                new String[] {"--worker", "1/2", "--start-at", soon, "--writers", "1"},
                new String[] {"--worker", "2/3", "--start-at", soon, "--mode", "queue", "--readers", "2"},
                new String[] {"--worker", "0/2", "--start-at", soon, "--find-max-rate"})) {
            List<String> args = new ArrayList<>(List.of(bad));
            args.addAll(List.of("--duration", "1s"));
            CommandRun o = QueueCommandTest.cli(db, "run", args.toArray(String[]::new));
            assertEquals(2, o.code(), String.join(" ", bad) + ": " + o.err());
            assertEquals(1, o.err().strip().lines().count(), o.err());
        }
    }
}

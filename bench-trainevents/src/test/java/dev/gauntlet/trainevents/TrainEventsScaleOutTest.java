package dev.gauntlet.trainevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.report.ResultMerge;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.workload.Lifecycle;
import dev.gauntlet.trainevents.workload.Variant;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One train-events run split over two processes ({@code --worker 0/2}, {@code 1/2}, one {@code --start-at}): worker 0
 * creates and seeds the tables, each process runs half the clients over the shared tables, and worker 0 checks the
 * events against both processes' ledgers: the adds, processes and archives each heard commit.
 */
@ExtendWith(PostgresExtension.class)
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class TrainEventsScaleOutTest {

    /**
     * A thread per driver process: they must run at once (worker 0 waits for the others), which the common pool does
     * not promise on a small machine.
     */
    private static final java.util.concurrent.Executor PROCESSES =
            java.util.concurrent.Executors.newCachedThreadPool();

    private static CommandRun cli(TestDatabase db, String... args) {
        return CommandRun.of(new TrainEventsCommand(), db, "run", args);
    }

    @Test
    void workerZeroChecksEveryProcesssEventsAndTheCheckSeesTheOthers(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_split");
        String startAt = Instant.now().plusSeconds(12).toString();
        List<CompletableFuture<CommandRun>> runs = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            String[] args = {"--clients", "4", "--seed-events", "200", "--duration", "3s", "--report-every", "1s",
                "--worker", w + "/2", "--start-at", startAt, "--seed", "9", "--out", tmp.resolve("w" + w).toString()};
            runs.add(CompletableFuture.supplyAsync(() -> cli(db, args), PROCESSES));
        }
        List<RunResult> w = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CommandRun run = runs.get(i).get();
            assertEquals(0, run.code(), "worker " + i + ": " + run.err());
            w.add(ResultFile.read(tmp.resolve("w" + i)));
        }
        for (RunResult r : w) {
            assertEquals(2, r.clients(), "half the clients each");
            assertTrue(r.operation(Lifecycle.ADD).orElseThrow().count() > 0, "both processes add events");
        }
        List<String> names = w.get(0).checks().stream().map(Check::name).toList();
        assertTrue(names.contains("no event the driver did not add"), names.toString());
        assertTrue(names.contains(EventChecks.NONE_UNDONE), names.toString());
        for (Check c : w.get(0).checks()) {
            assertEquals(Check.Status.PASS, c.status(), "worker 0: " + c.name() + ": " + c.detail());
        }
        assertTrue(w.get(1).checks().stream().noneMatch(c -> c.name().startsWith("every event added")),
                "worker 1 leaves the checks to worker 0: " + w.get(1).checks());

        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT count(DISTINCT worker), count(*) FILTER (WHERE worker = 1) FROM "
                    + Variant.SHARED_LEDGERS)) {
                rs.next();
                assertEquals(2, rs.getInt(1), "both ledgers stored");
                assertTrue(rs.getLong(2) > 0, "worker 1's events are in the ledgers worker 0 checked");
            }
            // An event only worker 1 added, gone: the check worker 0 runs counts it lost.
            s.execute("DELETE FROM " + Variant.ARCHIVE + " WHERE id = (SELECT id FROM " + Variant.SHARED_LEDGERS
                    + " l WHERE worker = 1 AND certain AND EXISTS (SELECT 1 FROM " + Variant.ARCHIVE
                    + " a WHERE a.id = l.id) LIMIT 1)");
            // An archive only worker 1 heard commit, undone (the event live and COMPLETE again): worker 0 sees it too.
            String unarchived;
            try (var rs = s.executeQuery("SELECT l.id FROM " + Variant.SHARED_LEDGERS + " l JOIN " + Variant.ARCHIVE
                    + " a ON a.id = l.id WHERE l.worker = 1 AND l.certain AND l.state = 'ARCHIVED' "
                    + "AND a.final_status = 'COMPLETE' ORDER BY l.id LIMIT 1")) {
                assertTrue(rs.next(), "worker 1 archived events");
                unarchived = rs.getString(1);
            }
            s.execute("INSERT INTO " + Variant.EVENTS + " (id, created_at, payload) SELECT id, created_at, payload FROM "
                    + Variant.ARCHIVE + " WHERE id = '" + unarchived + "'");
            s.execute("INSERT INTO " + Variant.STATUS + " (event_id, status) VALUES ('" + unarchived + "', 'COMPLETE')");
            s.execute("DELETE FROM " + Variant.ARCHIVE + " WHERE id = '" + unarchived + "'");
            List<Check> after = EventChecks.runOverStored(c, Variant.parse("jsonb"));
            Check lost = after.stream().filter(k -> k.name().startsWith("every event added")).findFirst().orElseThrow();
            assertEquals(Check.Status.FAIL, lost.status(), lost.detail());
            Check undone = after.stream().filter(k -> k.name().equals(EventChecks.NONE_UNDONE)).findFirst()
                    .orElseThrow();
            assertEquals(Check.Status.FAIL, undone.status(), undone.detail());
            assertEquals("1 violation: id=" + unarchived + " heard=PROCESSING,COMPLETE,ARCHIVED found=COMPLETE",
                    undone.detail());
        }
        RunResult merged = ResultMerge.merge(w);
        assertEquals(4, merged.clients());
        assertEquals(Check.Status.PASS, merged.checkStatus());
    }

    @Test
    void aSplitWithoutAStartTimeIsOneLine(TestDatabase server) {
        CommandRun o = cli(server.freshDatabase("te_split_refused"), "--worker", "1/2", "--duration", "1s");
        assertEquals(2, o.code(), o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("--start-at"), o.err());
    }
}

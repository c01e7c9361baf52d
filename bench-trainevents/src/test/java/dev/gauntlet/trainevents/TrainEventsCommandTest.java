package dev.gauntlet.trainevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.sql.observe.PostgresGauges;
import dev.gauntlet.sql.server.PgBouncer;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.trainevents.workload.Lifecycle;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bench-trainevents} as a user types it: runs direct, pooled (prepared statements off) and through a real
 * PgBouncer, a matrix with its comparison, init and check, and bad input refused with one line before anything starts.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class TrainEventsCommandTest {

    private static CommandRun cli(TestDatabase db, String command, String... args) {
        return CommandRun.of(new TrainEventsCommand(), db, command, args);
    }

    private static RunResult passingRun(TestDatabase db, Path out, String... options) throws Exception {
        String[] args = new String[options.length + 8];
        System.arraycopy(new String[] {"--clients", "4", "--duration", "2s", "--seed-events", "200", "--out",
                out.toString()}, 0, args, 0, 8);
        System.arraycopy(options, 0, args, 8, options.length);
        CommandRun run = cli(db, "run", args);
        assertEquals(0, run.code(), run.out() + run.err());
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        for (Check c : r.checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
        assertTrue(r.operation(Lifecycle.ADD).orElseThrow().count() > 0);
        assertTrue(r.observations().containsKey(Lifecycle.CYCLE), r.observations().keySet().toString());
        assertTrue(run.out().contains("│ __cycle__ │"), run.out());
        return r;
    }

    @Test
    void aDirectRunPrintsTheDbworkloadTableAndPassesItsChecks(TestDatabase server, @TempDir Path out) throws Exception {
        RunResult r = passingRun(server.freshDatabase("te_direct"), out, "--variant", "text", "--delay", "20ms");
        assertEquals("text", r.parameters().get("variant"));
        assertEquals("direct", r.parameters().get("pool"));
        assertTrue(r.metrics().containsKey("walBytesPerEvent"), r.metrics().keySet().toString());
        assertTrue(r.metrics().containsKey("size.eventsHeapMiB"), r.metrics().keySet().toString());
        assertTrue(r.gauges().containsKey(PostgresGauges.OLDEST_SNAPSHOT), r.gauges().keySet().toString());
        assertTrue(r.observations().containsKey(Lifecycle.CYCLE_WITH_DELAY));
        assertTrue(r.observations().get(Lifecycle.CYCLE_WITH_DELAY).latencyMs().mean()
                > r.observations().get(Lifecycle.CYCLE).latencyMs().mean(), "the delay is in __cycle__ only");
    }

    /**
     * The priming runs apart, before the measured run, and the tables are put back after it: every check passes,
     * "no event the driver did not add" among them, which fails when the priming's events stay in the tables
     * (watched failing with the restore left out).
     */
    @Test
    void aPrimingRunsApartAndLeavesTheTablesAsTheMeasuredRunFindsThem(TestDatabase server, @TempDir Path out)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_prime_apart");
        CommandRun run = cli(db, "run", "--clients", "4", "--duration", "2s", "--seed-events", "200", "--prime", "2s",
                "--variant", "jsonb", "--delay", "10ms", "--out", out.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        assertTrue(run.out().contains("Priming apart (not measured): 4 clients for 2s..."), run.out());
        assertTrue(run.out().contains("Primed for 2s ("), run.out());
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        assertEquals("apart, 2s; the tables restored after it", r.parameters().get("prime"));
        for (Check c : r.checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
        assertTrue(r.checks().stream().anyMatch(c -> c.name().equals("no event the driver did not add")),
                r.checks().toString());
        assertTrue(r.phases().stream().noneMatch(p -> p.name().equals("prime")), "the priming is not in the run");
        assertTrue(run.out().contains("(200 seeded before the run"), run.out());
    }

    @Test
    void aPooledRunWorksWithServerSidePreparedStatementsOff(TestDatabase server, @TempDir Path out) throws Exception {
        RunResult r = passingRun(server.freshDatabase("te_pooled"), out, "--variant", "jsonb-manual", "--pool",
                "pooled", "--pool-size", "2");
        assertEquals("pooled", r.parameters().get("pool"));
        assertTrue(r.operation(Lifecycle.ADD).orElseThrow().poolWait() != null, "pool wait reported apart");
    }

    @Test
    void aRunThroughARealPgBouncerInTransactionMode(TestDatabase server, @TempDir Path out) throws Exception {
        Assumptions.assumeTrue(PgBouncer.binary().isPresent(), "pgbouncer is not installed (apt-get install pgbouncer)");
        RunResult r = passingRun(server.freshDatabase("te_pgbouncer"), out, "--variant", "jsonb", "--pool",
                "pgbouncer", "--pool-size", "2");
        assertEquals("pgbouncer", r.parameters().get("pool"));
    }

    @Test
    void aMatrixComparesVariantsAndPoolModes(TestDatabase server, @TempDir Path out) throws Exception {
        CommandRun run = cli(server.freshDatabase("te_matrix"), "run", "--variant", "jsonb,text", "--pool",
                "direct,pooled", "--pool-size", "2", "--clients", "4", "--duration", "2s", "--seed-events", "100",
                "--out", out.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        String md = Files.readString(out.resolve("comparison.md"));
        for (String part : new String[] {"# Train events: jsonb, text × direct, pooled", "## By variant",
                "## By pool mode", "## Write amplification", "## What the server's sessions waited on",
                "## CPU per cycle", "## Interpretation", "JSONB with an inverted index is slowest on writes"}) {
            assertTrue(md.contains(part), part + " in:\n" + md);
        }
        for (String cell : new String[] {"jsonb+direct", "jsonb+pooled", "text+direct", "text+pooled"}) {
            assertTrue(Files.exists(out.resolve(cell).resolve(ResultFile.NAME)), cell);
        }
    }

    @Test
    void initThenCheckPassesAndCheckFailsOnAnArchivedEventStillLive(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("te_init");
        CommandRun init = cli(db, "init", "--variant", "text", "--seed-events", "50");
        assertEquals(0, init.code(), init.out() + init.err());
        CommandRun check = cli(db, "check");
        assertEquals(0, check.code(), check.out() + check.err());
        assertTrue(check.out().contains("Checking the text tables in one snapshot"), check.out());
        // Init again loses nothing: refused as it is, and with --drop and a bad option the drop is rolled back.
        CommandRun again = cli(db, "init", "--variant", "jsonb");
        assertEquals(2, again.code(), again.out() + again.err());
        assertTrue(again.err().contains("already loaded: the text tables; init --drop replaces it"), again.err());
        CommandRun bad = cli(db, "init", "--drop", "--variant", "xml");
        assertEquals(2, bad.code(), bad.out() + bad.err());
        try (var c = db.connect(); var s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM train_events")) {
            rs.next();
            assertEquals(50, rs.getInt(1), "the events init --drop --variant xml found");
        }
        try (var c = db.connect(); var s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("INSERT INTO train_events_archive (id, created_at, event_type, payload, final_status) "
                    + "SELECT id, created_at, event_type, payload, 'COMPLETE' FROM train_events LIMIT 1");
        }
        CommandRun broken = cli(db, "check");
        assertEquals(1, broken.code(), broken.out() + broken.err());
        assertTrue(broken.out().contains("no event both live and archived"), broken.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--min-batch 20 --max-batch 10 | --min-batch 20 is more than --max-batch 10",
            "--min-batch 0                 | --min-batch and --max-batch must be at least 1",
            "--variant jsonb,xml           | unknown variant 'xml'; expected jsonb, jsonb-manual or text",
            "--pool direct,bouncy          | bouncy",
            "--pool pooled --pool-size 0   | --pool-size must be at least 1",
            "--rate 10                     | --rate does not apply",
            "--fail-percent 120            | --fail-percent must be between 0 and 100"})
    void badInputIsOneLineAndExitTwoBeforeAnythingStarts(String args, String message, TestDatabase server) {
        CommandRun run = cli(server, "run", args.trim().split("\\s+"));
        assertEquals(2, run.code(), run.out() + run.err());
        String[] lines = run.err().strip().split("\n");
        assertEquals(1, lines.length, run.err());
        assertTrue(lines[0].contains(message), lines[0]);
        assertTrue(!run.out().contains("Creating the"), "nothing started: " + run.out());
    }
}

package dev.gauntlet.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.queue.figures.Cost;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end: the queue mode with drain and server gauges, retention, the search, init/check/drop. */
@ExtendWith(PostgresExtension.class)
class QueueCommandTest {

    static CommandRun cli(TestDatabase db, String command, String... args) {
        return CommandRun.of(new QueueCommand(), db, command, args);
    }


    private static void allPass(RunResult r) {
        for (Check c : r.checks()) {
            assertEquals(Check.Status.PASS, c.status(), c.name() + ": " + c.detail());
        }
    }

    @Test
    void aQueueRunDrainsAndRecordsTheServerOverTime(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("queue_cli_archive");
        Path out = tmp.resolve("run");
        CommandRun o = cli(db, "run", "--mode", "queue", "--ack", "archive", "--writers", "2", "--readers", "3",
                "--write-batch", "10", "--read-batch", "20", "--payload", "64", "--throttle-writes", "500",
                "--duration", "3s", "--report-every", "1s", "--drain=30s", "--out", out.toString());
        assertEquals(0, o.code(), o.err() + o.out());
        RunResult r = ResultFile.read(out);
        allPass(r);
        assertTrue(o.out().contains("Delivery: PASS (0 lost, 0 duplicates, 0 not yet consumed)"), o.out());
        assertTrue(o.out().contains("Drain: queue caught up") || o.out().contains("Drain: queue had nothing left"), o.out());
        assertNotNull(r.metrics().get("drain.queueSeconds"), r.metrics().toString());
        // The drain is the run's last phase, not a second run: the readers alone, ended when the backlog read 0.
        var drain = r.phases().get(r.phases().size() - 1);
        // The priming (auto: until the compilers settle, at most a quarter of the 3 s) comes first, unmeasured; its
        // messages are in the delivery check.
        assertEquals(java.util.List.of("prime", "measure", "drain"), r.phases().stream().map(p -> p.name()).toList());
        assertTrue(r.phases().get(0).endSeconds() > 0 && r.phases().get(0).endSeconds() <= 0.8,
                "primed at most 0.75 s: " + r.phases().get(0).endSeconds());
        assertTrue(!r.phases().get(0).isMeasured());
        assertTrue(!drain.isMeasured() && drain.endSeconds() - drain.startSeconds() < 30, "ended before its limit");
        var drainWrites = drain.operations().get("write");
        assertTrue(drainWrites == null || drainWrites.count() <= 2, "no writer runs in the drain: " + drainWrites);
        assertEquals("archive", r.parameters().get("ack"));
        // Server gauges every interval, drawn; WAL per message from the phase probe.
        assertTrue(r.gauges().containsKey("tableBytes") && r.gauges().containsKey("walBytes"), r.gauges().toString());
        assertTrue(r.gauges().get("tableBytes").max() > 0, "the archive grew: " + r.gauges());
        assertTrue(r.metrics().get("walBytesPerMessage") > 64, "each message writes at least its payload to WAL");
        assertTrue(Files.exists(out.resolve("gauge-tableBytes.png")));
        assertTrue(Files.readString(out.resolve("report.md")).contains("![tableBytes over time](gauge-tableBytes.png)"));
        // Readers were ready before the writers started.
        var writers = r.roles().stream().filter(x -> x.name().equals("writers")).findFirst().orElseThrow();
        assertEquals("readers", writers.after());
        assertNotNull(writers.startedAt());
    }

    @Test
    void retentionDeletesWhatEveryGroupHasReadAndTheLogStaysVerifiable(TestDatabase server, @TempDir Path tmp) {
        TestDatabase db = server.freshDatabase("queue_cli_retention");
        Path out = tmp.resolve("run");
        CommandRun o = cli(db, "run", "--writers", "2", "--partitions", "2", "--consumer-groups", "2", "--readers", "2",
                "--write-batch", "10", "--read-batch", "50", "--payload", "32", "--throttle-writes", "1000",
                "--retention", "consumed", "--retention-every", "200ms", "--duration", "3s", "--report-every", "1s",
                "--out", out.toString());
        assertEquals(0, o.code(), o.err() + o.out());
        RunResult r = ResultFile.read(out);
        allPass(r);
        long deleted = r.operation("retain").orElseThrow().counter("deleted");
        assertTrue(deleted > 500, "consumed messages deleted: " + deleted);
        CommandRun check = cli(db, "check");
        assertEquals(0, check.code(), check.out());
    }

    @Test
    void initCheckAndDropAndACheckThatFails(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("queue_cli_admin");
        CommandRun init = cli(db, "init", "--mode", "queue", "--ack", "archive");
        assertEquals(0, init.code(), init.out() + init.err());
        CommandRun ok = cli(db, "check");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertTrue(ok.out().contains("no message both queued and archived"), ok.out());
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO queue_messages (id, produced_at, payload) OVERRIDING SYSTEM VALUE VALUES (7, 0, 'x')");
            s.execute("INSERT INTO queue_archive (id, produced_at, payload) VALUES (7, 0, 'x')");
        }
        CommandRun bad = cli(db, "check");
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.out().contains("id=7"), bad.out());
        assertTrue(bad.err().contains("queue checks failed: "), bad.err());
        // A second init loses nothing: it refuses, and the rows it would have dropped are there.
        CommandRun again = cli(db, "init", "--mode", "queue");
        assertEquals(2, again.code(), again.out() + again.err());
        assertTrue(again.err().contains("already loaded: a queue and its archive; init --drop replaces it"), again.err());
        try (Connection c = db.connect(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT count(*) FROM queue_archive")) {
            rs.next();
            assertEquals(1, rs.getInt(1));
        }
        CommandRun replaced = cli(db, "init", "--drop", "--partitions", "3");
        assertEquals(0, replaced.code(), replaced.out() + replaced.err());
        assertTrue(replaced.out().contains("Loaded a log of 3 partitions"), replaced.out());
        CommandRun log = cli(db, "check");
        assertEquals(0, log.code(), log.out() + log.err());
        assertTrue(log.out().contains("Checking a log of 3 partitions in one snapshot"), log.out());
        assertEquals(0, cli(db, "drop").code());
        CommandRun none = cli(db, "check");
        assertEquals(2, none.code(), none.out() + none.err());
        assertTrue(none.err().contains("no queue tables at ") && none.err().contains("; run init first"), none.err());
    }

    @Test
    void badInputIsOneLineAndExit2BeforeAnythingStarts(TestDatabase server) {
        TestDatabase db = server.freshDatabase("queue_cli_bad");
        List<List<String>> cases = List.of(List.of("--mode", "kafka"), List.of("--ack", "flag"),
                List.of("--mode", "queue", "--partitions", "2"), List.of("--ack", "purge", "--mode", "queue"),
                List.of("--payload", "0"), List.of("--write-batch", "0"), List.of("--consumer-groups", "0"),
                List.of("--throttle-writes", "-5"), List.of("--readers", "0"), List.of("--retention", "forever"),
                List.of("--drain=0s"), List.of("--cost-per-hour", "-1"), List.of("--clients", "4"));
        for (List<String> args : cases) {
            CommandRun o = cli(db, "run", args.toArray(String[]::new));
            assertEquals(2, o.code(), args + ": " + o.err() + o.out());
            assertEquals(1, o.err().strip().lines().count(), args + ": " + o.err());
            assertTrue(o.err().contains(args.get(0).split("=")[0]), args + " names its option: " + o.err());
        }
    }

    @Test
    void theSearchStepsUpFromTheRawRateAndSaysWhyEachStepFailed(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("queue_cli_search");
        Path out = tmp.resolve("search");
        // A write p99 of 1 ms is out of reach: every throttled step fails, and the rate halves until it cannot.
        CommandRun o = cli(db, "run", "--find-max-rate", "--max-write-p99", "1ms", "--writers", "2", "--partitions", "1",
                "--consumer-groups", "1", "--readers", "1", "--write-batch", "10", "--payload", "16",
                "--throttle-writes", "40", "--duration", "2s", "--report-every", "1s", "--prime", "1s", "--out",
                out.toString());
        assertEquals(4, o.code(), "no rate met the objectives: " + o.err() + o.out());
        String summary = Files.readString(out.resolve("search.md"));
        assertTrue(summary.contains("**Nothing met the objectives; next step 10 msg/s missed: "), summary);
        assertTrue(summary.contains("Unthrottled (the clients back to back): "), summary);
        assertTrue(summary.contains("Objectives: `p99(write) <= 1ms`"), summary);
        assertTrue(summary.contains("every consumer group reads at least 97% of what was written"), summary);
        assertTrue(summary.contains("| slowest group read "), "each step's groups, in the table: " + summary);
        RunResult raw = ResultFile.read(out.resolve("step-01-unthrottled"));
        assertEquals("unthrottled", raw.variant());
        // The raw step, then 40, 20 and 10 msg/s, each twice before it counts as missed (one batch a second: it
        // cannot halve further).
        assertEquals(7, Files.list(out).filter(p -> p.getFileName().toString().startsWith("step-")).count());
        assertTrue(Files.isDirectory(out.resolve("step-06-rate-10")), summary);
        assertTrue(Files.isDirectory(out.resolve("step-07-again-rate-10")), summary);
    }

    @Test
    void costIsPricedAsTheSeedPricedIt() {
        // The seed: c7i.xlarge at $0.118/h is $1,033.68 a year; 450 GB at $0.08/GB-month is $432 a year.
        Cost cost = new Cost(0.118, 450, 0.08);
        assertEquals(1033.68, cost.serverPerYear(), 1e-9);
        assertEquals(432.0, cost.storagePerYear(), 1e-9);
        assertEquals(1465.68 / 4.92, cost.perYearPerMiBPerSecond(4.92), 1e-9);
        assertTrue(cost.line(4.92).startsWith("Cost: $1,466 a year ($1,034 server, $432 storage), $298 a year per MiB/s"),
                cost.line(4.92));
    }
}

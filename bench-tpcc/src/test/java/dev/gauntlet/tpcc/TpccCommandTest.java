package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The commands end to end against a real PostgreSQL with two loaded warehouses. */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class TpccCommandTest {

    static TestDatabase db;
    static TestDatabase empty;

    @BeforeAll
    static void load(TestDatabase server) {
        db = server.freshDatabase("tpcc_commands");
        empty = server.freshDatabase("tpcc_empty");
        Outcome init = tpcc(db, "init", "--warehouses", "2", "--seed", "1");
        assertEquals(0, init.code, init.err);
    }

    record Outcome(int code, String err) {
    }

    static Outcome tpcc(TestDatabase target, String command, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = GauntletCommandLine.create(new TpccCommand());
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(arguments(target, command, args));
        return new Outcome(code, err.toString());
    }

    /** The checks a run's result.json records as failed, for a failure's message. */
    static String failedChecks(Path out) {
        try {
            return ResultFile.read(out.resolve(ResultFile.NAME)).checks().stream()
                    .filter(c -> c.status() == Check.Status.FAIL).map(c -> c.name() + ": " + c.detail()).toList()
                    .toString();
        } catch (RuntimeException e) {
            return "(no result.json: " + e.getMessage() + ")";
        }
    }

    /** {@code command} against {@code target}: its URL, user and password, then {@code args}. */
    static String[] arguments(TestDatabase target, String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--url", target.jdbcUrl(), "--user", target.user()));
        if (target.password() != null) {
            all.add("--password=" + target.password());
        }
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    @Test
    void procedureModeKeepsAllTwelveChecksPassingInOneRoundTripATransaction(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("procedures");
        Outcome run = tpcc(db, "run", "--mode", "procedures", "--duration", "10s", "--clients", "4", "--seed", "3",
                "--report-every", "5s", "--expensive-checks", "--out", out.toString());
        assertEquals(0, run.code, () -> run.err + failedChecks(out));
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        assertEquals("procedures", r.parameters().get("mode"));
        List<Check> consistency = r.checks().stream().filter(c -> c.name().startsWith("3.3.2.")).toList();
        assertEquals(12, consistency.size(), consistency.toString());
        List<Check> failed = r.checks().stream().filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(failed.isEmpty(), "failed: " + failed);
        // Every consistency condition passes; 3.3.2.11 holds only until the first Delivery, as in statements mode.
        for (Check c : consistency) {
            assertEquals(c.name().startsWith("3.3.2.11 ") ? Check.Status.SKIP : Check.Status.PASS, c.status(),
                    c.name() + ": " + c.detail());
        }
        assertTrue(r.operation("newOrder").orElseThrow().counter("orderLines") > 0);
        double trips = r.metrics().get("roundTripsPerTransaction");
        assertTrue(trips >= 0.99 && trips <= 1.05, "one call in auto-commit per transaction: " + trips);
        assertTrue(r.metrics().containsKey("serverCpuPerTransactionMs"), r.metrics().keySet().toString());

        Path statements = tmp.resolve("statements");
        Outcome statementsRun = tpcc(db, "run", "--duration", "5s", "--clients", "4", "--seed", "3",
                "--expensive-checks", "--out", statements.toString());
        assertEquals(0, statementsRun.code, () -> statementsRun.err + failedChecks(statements));
        RunResult s = ResultFile.read(statements.resolve(ResultFile.NAME));
        assertTrue(s.checks().stream().noneMatch(c -> c.status() == Check.Status.FAIL), s.checks().toString());
        double statementTrips = s.metrics().get("roundTripsPerTransaction");
        // Every transaction one statement in auto-commit too (Delivery a second pass only when a district's oldest
        // order went to a concurrent Delivery).
        assertTrue(statementTrips >= 0.99 && statementTrips <= 1.05, "statements: " + statementTrips);
    }

    @Test
    void aShortRunKeepsEveryConsistencyCheckPassingAndCountsNewOrdersOnBothSides(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        // No priming: the server's count is read at phase boundaries, and a transaction in flight at the end of an
        // unmeasured first phase (priming or warm-up) is the client's in one phase and the server's in the other, so
        // the two agree exactly only when the measured phase is the run's first.
        Outcome run = tpcc(db, "run", "--duration", "4s", "--clients", "4", "--report-every", "2s", "--prime", "0s",
                "--seed", "3", "--expensive-checks", "--out", out.toString());
        assertEquals(0, run.code, () -> run.err + failedChecks(out));
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        List<Check> failed = r.checks().stream().filter(c -> c.status() == Check.Status.FAIL).toList();
        assertTrue(failed.isEmpty(), "failed: " + failed);
        for (String n : List.of("3.3.2.1 ", "3.3.2.6 ", "3.3.2.10 ", "3.3.2.12 ")) {
            assertTrue(r.checks().stream().anyMatch(c -> c.name().startsWith(n) && c.status() == Check.Status.PASS),
                    n + "passed");
        }
        assertTrue(r.metrics().get("tpmC") > 0);
        assertEquals(r.metrics().get("tpmC"), r.metrics().get("serverTpmC"), 1e-9,
                "committed New-Orders counted by the client and by the server agree");
        assertEquals(2, ((Number) r.parameters().get("warehouses")).intValue());
        assertEquals("read-committed", r.parameters().get("isolation"));
        assertEquals(List.of("newOrder", "payment", "orderStatus", "delivery", "stockLevel"),
                r.operations().stream().map(o -> o.name()).toList());
        assertTrue(r.operation("newOrder").orElseThrow().counter("orderLines") > 0);
        assertTrue(Files.exists(out.resolve("report.md")));
    }

    @Test
    void aRunWithoutWaitsHasNoEfficiencyAndSaysWhatTpmCCounts(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("no-wait");
        Outcome run = tpcc(db, "run", "--duration", "2s", "--clients", "2", "--no-check", "--out", out.toString());
        assertEquals(0, run.code, run.err);
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));

        assertTrue(r.metrics().get("tpmC") > 0);
        assertFalse(r.metrics().containsKey("efficiencyPercent"), "efficiency without keying and think times: "
                + r.metrics());
        assertFalse(r.parameters().containsKey("efficiency ceiling"), r.parameters()::toString);
        String counts = "committed New-Orders only: the 1% rolled back on the unused item are not counted "
                + "(HammerDB's NOPM rule; cockroach workload counts them)";
        assertEquals(counts, r.parameters().get("tpmC counts"));
        assertTrue(Files.readString(out.resolve("report.md")).contains(counts), "report.md states what tpmC counts");
    }

    @Test
    void aKeyedRunReportsEfficiencyAgainstTheDecksCeiling(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("wait");
        Outcome run = tpcc(db, "run", "--wait", "--active-warehouses", "1", "--duration", "2s", "--no-check",
                "--out", out.toString());
        assertEquals(0, run.code, run.err);
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));

        assertTrue(r.metrics().containsKey("efficiencyPercent"), r.metrics()::toString);
        String ceiling = "12.605 tpmC per active warehouse: 10 terminals, each at most 10 New-Orders per 476 s "
                + "pass through the 23-card deck (minimum keying plus mean think times)";
        assertEquals(ceiling, r.parameters().get("efficiency ceiling"));
        assertTrue(Files.readString(out.resolve("report.md")).contains(ceiling), "report.md states the ceiling");
    }

    @Test
    void theWarehouseSearchSetsTheActiveWarehousesOfEachStepAndJudgesItsEfficiency(@TempDir Path tmp)
            throws Exception {
        Path out = tmp.resolve("warehouses");
        // Steps of 2 s cannot reach 85% efficiency (a terminal keys for 18 s before its first New-Order): the step at
        // half the 2 loaded warehouses misses, and the search cannot halve below one warehouse.
        Outcome run = tpcc(db, "run", "--wait", "--find-max-warehouses", "--duration", "2s", "--prime", "0s",
                "--no-check", "--out", out.toString());
        assertEquals(4, run.code, "nothing met the objectives: " + run.err);
        String summary = Files.readString(out.resolve("search.md"));
        assertTrue(summary.startsWith("# Most warehouses meeting the objectives"), summary);
        assertTrue(summary.contains("**Nothing met the objectives; next step 1 warehouses missed: "), summary);
        assertTrue(summary.contains("efficiency"), summary);
        assertTrue(summary.contains("`p90(newOrder) <= 5s`") && summary.contains("`p90(stockLevel) <= 20s`"), summary);
        RunResult step = ResultFile.read(out.resolve("step-01-warehouses-1").resolve(ResultFile.NAME));
        assertEquals(1, ((Number) step.parameters().get("activeWarehouses")).intValue());
        assertEquals(5, step.objectives().size(), "the specification's limits judged in the step's own result");
        assertTrue(step.checks().stream().noneMatch(c -> c.name().startsWith("5.2.5.3")),
                "in a search the limits are objectives, not checks: " + step.checks());
        Outcome noWait = tpcc(db, "run", "--find-max-warehouses", "--duration", "1s");
        assertEquals(2, noWait.code, noWait.err);
        assertTrue(noWait.err.contains("--find-max-warehouses runs with --wait"), noWait.err);
        assertEquals(1, noWait.err.strip().lines().count(), noWait.err);
        Outcome rateWithWait = tpcc(db, "run", "--wait", "--find-max-rate", "--duration", "1s");
        assertEquals(2, rateWithWait.code, rateWithWait.err);
    }

    @Test
    void remoteWarehousesAreDrawnFromTheActiveOnes(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("one-active");
        Outcome run = tpcc(db, "run", "--warehouses", "2", "--active-warehouses", "1", "--duration", "3s",
                "--clients", "2", "--no-check", "--out", out.toString());
        assertEquals(0, run.code, run.err);
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));

        assertTrue(r.operation("payment").orElseThrow().count() > 100, "enough payments to see 15% remote");
        assertTrue(r.operation("newOrder").orElseThrow().counter("orderLines") > 1_000,
                "enough order lines to see 1% remote");
        assertEquals(0, r.operation("payment").orElseThrow().counter("remote"), "one active warehouse: none remote");
        assertEquals(0, r.operation("newOrder").orElseThrow().counter("remoteOrderLines"));
    }

    @Test
    void anExperimentComparesItsVariantsAndReportsTheOneWhoseSqlFailed(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("ab");
        Outcome run = tpcc(db, "run", "--duration", "2s", "--clients", "2", "--no-check",
                "--variant", "a=", "--variant", "b=ALTER SYSTEM SET commit_delay = 7; SELECT pg_reload_conf()",
                "--variant", "broken=SELECT * FROM no_such_table", "--out", out.toString());
        assertEquals(1, run.code, "a failed variant makes the experiment exit 1");
        assertTrue(run.err.contains("broken"), run.err);
        String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains("| Metric"), md);
        assertTrue(md.contains("tpmC"), md);
        assertTrue(md.contains("`a`") && md.contains("`b`"), md);
        assertTrue(md.contains("broken: its SQL failed"), md);
        assertNotNull(ResultFile.read(out.resolve("a").resolve(ResultFile.NAME)));
        RunResult b = ResultFile.read(out.resolve("b").resolve(ResultFile.NAME));
        assertEquals("7", b.parameters().get("setting commit_delay"), "the variant's setting was read back in effect");
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("ALTER SYSTEM RESET commit_delay");
            s.execute("SELECT pg_reload_conf()");
        }
        assertFalse(Files.exists(out.resolve("broken")), "nothing written for a variant that never ran");
    }

    @Test
    void repeatedExperimentsAlternateTheVariantsAndCompareWithConfidence(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("repeat");
        Outcome run = tpcc(db, "run", "--duration", "1s", "--clients", "2", "--no-check", "--seed", "7",
                "--variant", "a=", "--variant", "b=", "--repeat", "2", "--out", out.toString());
        assertEquals(0, run.code, run.err);
        List<RunResult> inOrder = new java.util.ArrayList<>();
        for (String dir : List.of("a/run-1", "b/run-1", "a/run-2", "b/run-2")) {
            inOrder.add(ResultFile.read(out.resolve(dir)));
        }
        for (int i = 1; i < inOrder.size(); i++) {
            assertTrue(java.time.Instant.parse(inOrder.get(i - 1).startedAt())
                    .isBefore(java.time.Instant.parse(inOrder.get(i).startedAt())), "A B A B order: run " + i);
            assertEquals(inOrder.get(0).parameters().get("seed"), inOrder.get(i).parameters().get("seed"),
                    "one seed for every run");
        }
        String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains("a (2 runs)") && md.contains("b (2 runs)"), md);
        assertTrue(md.contains("Welch's t interval"), md);
        assertTrue(md.contains("ran 2 times, the cells alternating"), md);
        assertFalse(md.contains("Not like for like"), "the same seed and settings: like for like\n" + md);
        assertFalse(md.contains("inconclusive: one run"), "two runs a side have intervals\n" + md);
    }

    @Test
    void runBeforeInitSaysSo() {
        Outcome run = tpcc(empty, "run", "--duration", "1s");
        assertEquals(2, run.code);
        assertTrue(run.err.contains("no TPC-C schema at") && run.err.contains("run init first"), run.err);
        assertEquals(1, run.err.strip().lines().count(), run.err);
        // All input is checked before anything starts: an output directory that cannot be created comes first.
        Outcome unwritable = tpcc(empty, "run", "--duration", "1s", "--out", "/proc/gauntlet-nope");
        assertEquals(2, unwritable.code);
        assertTrue(unwritable.err.contains("cannot write to --out /proc/gauntlet-nope"), unwritable.err);
    }

    @Test
    void impossibleWarehouseCountsAreBadInput() {
        Outcome tooMany = tpcc(db, "run", "--active-warehouses", "3", "--duration", "1s");
        assertEquals(2, tooMany.code);
        assertTrue(tooMany.err.contains("--active-warehouses 3 is more than the 2 warehouses"), tooMany.err);
        Outcome notLoaded = tpcc(db, "run", "--warehouses", "5", "--duration", "1s");
        assertEquals(2, notLoaded.code);
        assertTrue(notLoaded.err.contains("only 2 are loaded"), notLoaded.err);
        assertEquals(2, tpcc(db, "init", "--warehouses", "0").code);
        assertEquals(2, tpcc(db, "run", "--warehouses", "0").code);
        Outcome waitWithClients = tpcc(db, "run", "--wait", "--clients", "3", "--duration", "1s");
        assertEquals(2, waitWithClients.code);
        assertTrue(waitWithClients.err.contains("--wait"), waitWithClients.err);
        assertEquals(2, tpcc(db, "run", "--isolation", "snapshot").code);
    }

    @Test
    void aRunOnDataEarlierRunsHaveDoubledSaysSoAndRecordsHowMuch(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase grown = server.freshDatabase("tpcc_growth");
        Outcome loaded = tpcc(grown, "init", "--warehouses", "1", "--seed", "1");
        assertEquals(0, loaded.code, loaded.err);
        AdversityRunTest.Outcome fresh = secondRun(grown, tmp.resolve("fresh"));
        assertEquals(0, fresh.code(), fresh.err());
        assertFalse(fresh.out().contains("Note: earlier runs added"), fresh.out());
        assertEquals(0, ((Number) ResultFile.read(tmp.resolve("fresh").resolve(ResultFile.NAME)).parameters()
                .get("ordersAddedSinceLoad")).longValue(), "nothing added before the first run");

        // What some runs leave: each district 3,000 orders further on (the orders themselves are not needed to count
        // them; the count is the districts' next order ids, which is why this run skips the checks).
        try (Connection c = grown.connect(); Statement s = c.createStatement()) {
            s.execute("UPDATE district SET d_next_o_id = d_next_o_id + 3000");
        }
        Path out = tmp.resolve("grown");
        AdversityRunTest.Outcome run = secondRun(grown, out);
        assertEquals(0, run.code(), run.err());
        RunResult grownRun = ResultFile.read(out.resolve(ResultFile.NAME));
        long added = ((Number) grownRun.parameters().get("ordersAddedSinceLoad")).longValue();
        // It describes this run's data, not the test: runs on kept data stay one series in a history, whose change
        // points then show what the growth does, and a comparison does not call them unlike for it.
        assertFalse(dev.gauntlet.core.result.Conditions.isCondition(grownRun, "ordersAddedSinceLoad"),
                grownRun.parameters().toString());
        assertTrue(added >= 30_000, "30,000 by the districts and the first run's New-Orders: " + added);
        assertTrue(run.out().contains("Note: earlier runs added " + String.format(java.util.Locale.ROOT, "%,d", added)
                + " orders to the 30,000 loaded"), run.out());
    }

    /** A second's run without checks into {@code out}, its console captured. */
    private static AdversityRunTest.Outcome secondRun(TestDatabase target, Path out) {
        return PlanDryRunTest.tpcc(arguments(target, "run", "--duration", "1s", "--prime", "0s", "--clients", "2",
                "--no-check", "--out", out.toString()));
    }

    @Test
    void initIsIdempotent() {
        Outcome again = tpcc(db, "init", "--warehouses", "2");
        assertEquals(0, again.code, again.err);
    }
}

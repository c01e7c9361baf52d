package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.TimelineFile;
import dev.gauntlet.testing.ChildJvm;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import dev.gauntlet.tpcc.workload.NewOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver killed with SIGKILL mid-run (the OOM killer, an evicted pod): its directory still holds every interval it
 * closed and every New-Order it heard commit; {@code report recover} makes a result of them, marked incomplete, and
 * {@code check --ledger} proves (or refutes) that nothing it heard commit was lost.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class DeadDriverTest {

    @Test
    void aKilledDriversRunIsRecoveredAndItsLedgerChecked(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("tpcc_dead_driver");
        assertEquals(0, TpccCommandTest.tpcc(db, "init", "--warehouses", "2", "--seed", "5").code());
        Path dir = tmp.resolve("killed");
        Path log = tmp.resolve("child.log");
        Process child = ChildJvm.start(ChildJvm.command(TpccCommand.class, List.of("-Xmx256m"), db, "run",
                "--duration", "5m", "--prime", "1s", "--warmup", "2s", "--clients", "4", "--report-every", "1s",
                "--out", dir.toString()), log);
        long readable;
        try {
            // Read while it is written: every closed interval is on disk as it closes.
            readable = awaitIntervals(dir.resolve(TimelineFile.NAME), 8, child, log);
            assertTrue(Files.size(dir.resolve(CommittedOrders.FILE)) > 0, "the ledger is written as the run goes");
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(137, child.exitValue(), Files.readString(log));
        assertFalse(Files.exists(dir.resolve(ResultFile.NAME)), "a killed driver writes no result");
        assertTrue(Files.exists(dir.resolve(RecoveredRun.STARTED)));

        List<Interval> intervals = new ArrayList<>();
        TimelineFile.read(dir.resolve(TimelineFile.NAME), intervals::add);
        assertTrue(intervals.size() >= readable, intervals.size() + " intervals after the kill, " + readable + " before");

        TpccCommandTest.Outcome recover = tpcc("report", "recover", dir.toString());
        assertEquals(0, recover.code(), recover.err());
        RunResult r = ResultFile.read(dir);
        assertEquals(RecoveredRun.DRIVER_DIED, r.parameters().get("stopReason"));
        assertTrue(String.valueOf(r.parameters().get(RecoveredRun.INCOMPLETE)).contains("planned to last 303.0 s"),
                r.parameters().toString());
        assertEquals(intervals.size(), r.fullTimeline().intervals());
        // Every measured interval's New-Orders, added up; the warm-up's not.
        long newOrders = intervals.stream().filter(i -> Phase.MEASURE.equals(i.phase()))
                .mapToLong(i -> (i.operations().containsKey(NewOrder.NAME) ? i.operations().get(NewOrder.NAME).count() : 0)).sum();
        OperationResult recovered = r.operations().stream().filter(o -> o.name().equals(NewOrder.NAME)).findFirst()
                .orElseThrow();
        assertEquals(newOrders, recovered.count());
        assertTrue(recovered.count() > 0 && recovered.latencyMs().p99() > 0);
        assertEquals(List.of(Phase.PRIME, Phase.WARMUP, Phase.MEASURE), r.phases().stream().map(Phase::name).toList());
        assertTrue(Files.readString(dir.resolve("report.md")).contains("**Incomplete:** recovered after the driver "
                + "died"));
        assertTrue(Files.exists(dir.resolve("dashboard.html")));
        assertFalse(Files.exists(dir.resolve(RecoveredRun.STARTED)));
        assertEquals(2, tpcc("report", "recover", dir.toString()).code(), "a recovered run is recovered once");

        // The ledger holds what the driver heard commit until the kill: all of it is there.
        long ledger = CommittedOrders.read(dir).size();
        assertTrue(ledger >= newOrders, ledger + " in the ledger, " + newOrders + " counted in closed intervals");
        TpccCommandTest.Outcome check = TpccCommandTest.tpcc(db, "check", "--ledger", dir.toString());
        assertEquals(0, check.code(), check.err());
        Check nothingLost = ResultFile.read(dir).checks().stream().filter(c -> c.name().startsWith("nothing lost"))
                .findFirst().orElseThrow();
        assertEquals(Check.Status.PASS, nothingLost.status(), nothingLost.detail());
        assertTrue(nothingLost.detail().contains(String.format(java.util.Locale.ROOT, "all %,d New-Orders", ledger)),
                nothingLost.detail());

        // One order the driver heard commit, lost: the check names it.
        String lost = lastOrder(dir);
        String[] key = lost.split("/");
        try (Connection c = db.connect(); PreparedStatement d = c.prepareStatement(
                "DELETE FROM \"order\" WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?")) {
            for (int i = 0; i < 3; i++) {
                d.setInt(i + 1, Integer.parseInt(key[i]));
            }
            assertEquals(1, d.executeUpdate());
        }
        TpccCommandTest.Outcome refuted = TpccCommandTest.tpcc(db, "check", "--ledger", dir.toString());
        assertEquals(1, refuted.code(), refuted.err());
        nothingLost = ResultFile.read(dir).checks().stream().filter(c -> c.name().startsWith("nothing lost"))
                .findFirst().orElseThrow();
        assertEquals(Check.Status.FAIL, nothingLost.status());
        assertTrue(nothingLost.detail().contains("1 absent (" + lost + ")"), nothingLost.detail());
    }

    @Test
    void aRunWhoseOneDriverDiedMergesTheOthersAndItsRecoveredPart(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("tpcc_dead_worker");
        assertEquals(0, TpccCommandTest.tpcc(db, "init", "--warehouses", "2", "--seed", "5").code());
        String at = java.time.Instant.now().plusSeconds(8).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        Path alive = tmp.resolve("worker-0");
        Path dead = tmp.resolve("worker-1");
        Path log = tmp.resolve("child.log");
        Process child = ChildJvm.start(ChildJvm.command(TpccCommand.class, List.of("-Xmx256m"), db, "run", "--worker",
                "1/2", "--start-at", at, "--duration", "5m", "--prime", "1s", "--clients", "4", "--report-every",
                "1s", "--out", dead.toString()), log);
        try {
            TpccCommandTest.Outcome survivor = TpccCommandTest.tpcc(db, "run", "--worker", "0/2", "--start-at", at,
                    "--duration", "20s", "--prime", "1s", "--clients", "4", "--report-every", "1s", "--out",
                    alive.toString());
            assertEquals(0, survivor.code(), survivor.err());
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(0, tpcc("report", "recover", dead.toString()).code());
        Path merged = tmp.resolve("merged");
        TpccCommandTest.Outcome merge = tpcc("report", "merge", alive.toString(), dead.toString(), "--out",
                merged.toString());
        assertEquals(0, merge.code(), merge.err());
        RunResult m = ResultFile.read(merged);
        assertTrue(String.valueOf(m.parameters().get(RecoveredRun.INCOMPLETE)).startsWith("1 of 2 input(s) is the "
                + "recovered part of a driver that died (1/2: recovered after the driver died"), m.parameters()
                .toString());
        long both = ResultFile.read(alive).operations().stream().filter(o -> o.name().equals(NewOrder.NAME))
                .mapToLong(OperationResult::count).sum()
                + ResultFile.read(dead).operations().stream().filter(o -> o.name().equals(NewOrder.NAME))
                .mapToLong(OperationResult::count).sum();
        assertEquals(both, m.operations().stream().filter(o -> o.name().equals(NewOrder.NAME))
                .mapToLong(OperationResult::count).sum());
        assertTrue(Files.readString(merged.resolve("report.md")).contains("**Incomplete:** 1 of 2 input(s)"));
    }

    @Test
    void checkLedgerRefusesADirectoryWithoutOneInOneLine(TestDatabase server, @TempDir Path tmp) {
        TestDatabase db = server.freshDatabase("tpcc_no_ledger");
        assertEquals(0, TpccCommandTest.tpcc(db, "init", "--warehouses", "1", "--seed", "5").code());
        TpccCommandTest.Outcome check = TpccCommandTest.tpcc(db, "check", "--ledger", tmp.toString());
        assertEquals(2, check.code());
        assertTrue(check.err().contains("holds no " + CommittedOrders.FILE), check.err());
        assertEquals(1, check.err().strip().lines().count(), check.err());
    }

    private static TpccCommandTest.Outcome tpcc(String... args) {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cli = dev.gauntlet.core.cli.GauntletCommandLine.create(new TpccCommand());
        cli.setErr(new java.io.PrintWriter(err, true));
        return new TpccCommandTest.Outcome(cli.execute(args), err.toString());
    }

    /** The key of the last order the ledger holds. */
    private static String lastOrder(Path dir) {
        String[] last = new String[1];
        CommittedOrders.read(dir).forEach(o -> last[0] = o.key());
        return last[0];
    }

    /** Waits until the timeline, read while the child writes it, has {@code n} intervals; returns how many it had. */
    private static long awaitIntervals(Path timeline, int n, Process child, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw new AssertionError("the driver ended before it was killed: " + Files.readString(log));
            }
            if (Files.exists(timeline)) {
                long[] count = {0};
                TimelineFile.read(timeline, i -> count[0]++);
                if (count[0] >= n) {
                    return count[0];
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no " + n + " intervals in 3 minutes: " + readQuietly(log));
    }

    private static String readQuietly(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }
}

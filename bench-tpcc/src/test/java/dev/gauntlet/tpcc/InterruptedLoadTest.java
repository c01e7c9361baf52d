package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.testing.ChildJvm;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.tpcc.schema.LoadLock;
import dev.gauntlet.tpcc.workload.Scale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load killed half-way (kill -9 of the JVM running {@code init}) is never taken for a complete one: while it runs it
 * is a load under way, after the kill {@code run}, {@code check}, a worker waiting for it and a plain {@code init}
 * refuse it in one line, and {@code init --resume} loads only what is missing, leaving the finished warehouses' rows
 * as they were.
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class InterruptedLoadTest {

    /** The tables of one warehouse, with the column that says which, and the rows a warehouse has in each. */
    private static final Map<String, Object[]> PER_WAREHOUSE = new LinkedHashMap<>();

    static {
        int customers = Scale.DISTRICTS_PER_WAREHOUSE * Scale.CUSTOMERS_PER_DISTRICT;
        int orders = Scale.DISTRICTS_PER_WAREHOUSE * Scale.ORDERS_PER_DISTRICT;
        PER_WAREHOUSE.put("warehouse", new Object[] {"w_id", 1});
        PER_WAREHOUSE.put("district", new Object[] {"d_w_id", Scale.DISTRICTS_PER_WAREHOUSE});
        PER_WAREHOUSE.put("customer", new Object[] {"c_w_id", customers});
        PER_WAREHOUSE.put("history", new Object[] {"h_w_id", customers});
        PER_WAREHOUSE.put("\"order\"", new Object[] {"o_w_id", orders});
        PER_WAREHOUSE.put("new_order", new Object[] {"no_w_id", Scale.DISTRICTS_PER_WAREHOUSE
                * (Scale.ORDERS_PER_DISTRICT - Scale.FIRST_UNDELIVERED_ORDER + 1)});
        PER_WAREHOUSE.put("stock", new Object[] {"s_w_id", Scale.ITEMS});
        PER_WAREHOUSE.put("order_line", new Object[] {"ol_w_id", -1});
    }

    @Test
    void aLoadKilledHalfWayIsRefusedInOneLineAndResumeLoadsOnlyWhatIsMissing(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("tpcc_interrupted");
        Path log = tmp.resolve("init.log");
        // One thread: the item table, then warehouses 1, 2, 3 one after another.
        Process init = child(db, log, "init", "--warehouses", "3", "--load-threads", "1", "--seed", "5");
        try {
            awaitFinishedWarehouses(db, 1, init, log);
            CommandRun underWay = tpcc(db, "check");
            assertEquals(2, underWay.code(), underWay.err());
            assertOneLine(underWay.err(), "a load under way at " + db.jdbcUrl() + ": ", "of 3 warehouses loaded",
                    "so far; wait for it to finish");
            assertTrue(init.isAlive(), "the load was still under way when check looked: " + Files.readString(log));
        } finally {
            init.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        awaitLockReleased(db);

        List<Integer> finished = finishedWarehouses(db);
        int missing = 3 - finished.size();
        assertTrue(missing >= 1, "killed before the load finished: " + finished + "\n" + Files.readString(log));
        Map<String, String> before = fingerprints(db, finished);

        String partial = "a partial load at " + db.jdbcUrl() + ": " + finished.size()
                + " of 3 warehouses loaded, keys and indexes not built (the load was interrupted); run "
                + "'bench-tpcc init --resume' to finish it, or 'bench-tpcc init --drop' to start over";
        CommandRun run = tpcc(db, "run", "--duration", "1s", "--clients", "2", "--out", tmp.resolve("r0").toString());
        assertEquals(2, run.code(), run.err());
        assertOneLine(run.err(), partial);
        assertFalse(Files.exists(tmp.resolve("r0").resolve("result.json")), "nothing ran");
        CommandRun check = tpcc(db, "check");
        assertEquals(2, check.code(), check.err());
        assertOneLine(check.err(), partial);
        assertFalse(check.out().contains("Checking"), check.out());
        CommandRun runInit = tpcc(db, "run", "--init", "--warehouses", "3", "--duration", "1s", "--clients", "2");
        assertEquals(2, runInit.code(), runInit.err());
        assertOneLine(runInit.err(), partial);
        CommandRun worker = tpcc(db, "run", "--worker", "1/2", "--warehouses", "3", "--load-timeout", "1s",
                "--start-at", Instant.now().plusSeconds(600).toString(), "--duration", "1s", "--clients", "2");
        assertEquals(2, worker.code(), worker.err());
        assertOneLine(worker.err(), "worker 1/2: waiting for the load of 3 warehouse(s)", partial);
        CommandRun plainInit = tpcc(db, "init", "--warehouses", "3");
        assertEquals(2, plainInit.code(), plainInit.err());
        assertOneLine(plainInit.err(), partial);
        CommandRun otherCount = tpcc(db, "init", "--resume", "--warehouses", "5");
        assertEquals(2, otherCount.code(), otherCount.err());
        assertOneLine(otherCount.err(), "--resume finishes the interrupted load of 3 warehouses");
        CommandRun otherJob = tpcc(db, "init", "--warehouses", "5", "--or-resume");
        assertEquals(2, otherJob.code(), otherJob.err());
        assertOneLine(otherJob.err(), "--or-resume finishes the interrupted load of 3 warehouses");
        assertEquals(before, fingerprints(db, finished), "the refusals changed nothing");

        // What a retried Kubernetes init Job runs: the same arguments as the killed pod's, and --or-resume.
        CommandRun resume = tpcc(db, "init", "--warehouses", "3", "--or-resume");
        assertEquals(0, resume.code(), resume.err() + resume.out());
        assertTrue(resume.out().contains("Resuming a load of 3 warehouses at " + db.jdbcUrl() + ": " + missing
                + " missing ("), resume.out());
        assertTrue(resume.out().contains("Loading " + missing + " warehouse(s) with"), resume.out());
        assertEquals(before, fingerprints(db, finished), "the warehouses finished before the kill were not touched");
        assertEquals(List.of(1, 2, 3), finishedWarehouses(db));
        assertFullWarehouses(db, 3);

        CommandRun after = tpcc(db, "run", "--duration", "2s", "--clients", "2", "--out", tmp.resolve("r1").toString());
        assertEquals(0, after.code(), after.err());
        CommandRun checked = tpcc(db, "check");
        assertEquals(0, checked.code(), checked.err() + checked.out());
        assertTrue(checked.out().contains("Checking 3 warehouses in one snapshot"), checked.out());
        CommandRun again = tpcc(db, "init", "--resume");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("Nothing to resume: the load of 3 warehouses at " + db.jdbcUrl()
                + " is complete; nothing is missing."), again.out());
    }

    @Test
    void aLoadFromBeforePlansIsJudgedByItsFinishedRowsAndIndexes(TestDatabase server, @TempDir Path tmp) {
        TestDatabase db = server.freshDatabase("tpcc_old_load");
        // --or-resume where nothing was started: a plain load.
        CommandRun init = tpcc(db, "init", "--warehouses", "1", "--seed", "3", "--or-resume");
        assertEquals(0, init.code(), init.err());
        assertTrue(init.out().contains("Loading 1 warehouse(s) and the item table with"), init.out());
        sql(db, "DROP TABLE tpcc_load_plan");
        CommandRun old = tpcc(db, "run", "--duration", "1s", "--clients", "1", "--no-check",
                "--out", tmp.resolve("old").toString());
        assertEquals(0, old.code(), "a complete load from before plans runs: " + old.err());

        sql(db, "ALTER TABLE stock DROP CONSTRAINT stock_pkey");
        CommandRun check = tpcc(db, "check");
        assertEquals(2, check.code(), check.err());
        assertOneLine(check.err(), "a partial load at " + db.jdbcUrl() + ": 1 warehouse loaded, keys and indexes not "
                + "built (the load was interrupted)");
        CommandRun resume = tpcc(db, "init", "--resume");
        assertEquals(0, resume.code(), resume.err());
        assertTrue(resume.out().contains("Resuming a load of 1 warehouse at " + db.jdbcUrl() + " (from before "
                + "loads recorded their plan: up to the highest finished warehouse or --warehouses): no warehouse "
                + "missing"), resume.out());
        CommandRun run = tpcc(db, "run", "--duration", "1s", "--clients", "1", "--no-check",
                "--out", tmp.resolve("resumed").toString());
        assertEquals(0, run.code(), run.err());
    }

    @Test
    void resumeNeedsALoadAndIsNotDrop(TestDatabase server) {
        TestDatabase db = server.freshDatabase("tpcc_nothing_to_resume");
        CommandRun nothing = tpcc(db, "init", "--resume");
        assertEquals(2, nothing.code(), nothing.err());
        assertOneLine(nothing.err(), "nothing to resume at " + db.jdbcUrl() + ": no TPC-C load was started there; "
                + "run 'bench-tpcc init' to load one");
        CommandRun both = tpcc(db, "init", "--resume", "--drop");
        assertEquals(2, both.code(), both.err());
        assertOneLine(both.err(), "--resume finishes the load that is there and --drop starts over");
        CommandRun orResume = tpcc(db, "init", "--or-resume", "--drop");
        assertEquals(2, orResume.code(), orResume.err());
        assertOneLine(orResume.err(), "--or-resume finishes the load that is there and --drop starts over");
    }

    private static CommandRun tpcc(TestDatabase db, String command, String... args) {
        return CommandRun.of(new TpccCommand(), db, command, args);
    }

    /** {@code bench-tpcc command args} against {@code db} in a JVM of its own, its console into {@code log}. */
    private static Process child(TestDatabase db, Path log, String command, String... args) throws Exception {
        return ChildJvm.start(ChildJvm.command(TpccCommand.class, List.of(), db, command, args), log);
    }

    private static void awaitFinishedWarehouses(TestDatabase db, int n, Process init, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            assertTrue(init.isAlive(), "init ended early: " + Files.readString(log));
            try {
                if (finishedWarehouses(db).size() >= n) {
                    return;
                }
            } catch (SQLException notYet) {
                // the tables are in the making
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no warehouse finished in 5 minutes: " + Files.readString(log));
    }

    /** The server ends the killed JVM's sessions when it notices their sockets closed. */
    private static void awaitLockReleased(TestDatabase db) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection c = db.connect()) {
            while (LoadLock.held(c)) {
                assertTrue(System.nanoTime() < deadline, "the killed load's session never ended");
                Thread.sleep(100);
            }
        }
    }

    private static List<Integer> finishedWarehouses(TestDatabase db) throws SQLException {
        List<Integer> finished = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT w_id FROM tpcc_load WHERE w_id > 0 ORDER BY w_id")) {
            while (rs.next()) {
                finished.add(rs.getInt(1));
            }
        }
        return finished;
    }

    /**
     * Per table and warehouse: its rows' count and a hash of their physical places and inserting transactions, which
     * any delete and reload changes.
     */
    private static Map<String, String> fingerprints(TestDatabase db, List<Integer> warehouses) throws SQLException {
        Map<String, String> prints = new LinkedHashMap<>();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (int w : warehouses) {
                for (Map.Entry<String, Object[]> t : PER_WAREHOUSE.entrySet()) {
                    prints.put(t.getKey() + " " + w, value(s, "SELECT count(*) || ' ' || md5(string_agg(ctid::text "
                            + "|| xmin::text, ',' ORDER BY ctid)) FROM " + t.getKey() + " WHERE " + t.getValue()[0]
                            + " = " + w));
                }
            }
            prints.put("item", value(s, "SELECT count(*) || ' ' || md5(string_agg(ctid::text || xmin::text, ',' "
                    + "ORDER BY ctid)) FROM item"));
        }
        return prints;
    }

    /** Every warehouse exactly as many rows as one has (none twice: what the kill left of one was deleted). */
    private static void assertFullWarehouses(TestDatabase db, int warehouses) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (int w = 1; w <= warehouses; w++) {
                for (Map.Entry<String, Object[]> t : PER_WAREHOUSE.entrySet()) {
                    int rows = (int) t.getValue()[1];
                    if (rows >= 0) {
                        assertEquals(String.valueOf(rows), value(s, "SELECT count(*) FROM " + t.getKey() + " WHERE "
                                + t.getValue()[0] + " = " + w), t.getKey() + " of warehouse " + w);
                    }
                }
            }
            assertEquals(String.valueOf(Scale.ITEMS), value(s, "SELECT count(*) FROM item"));
        }
    }

    private static String value(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void sql(TestDatabase db, String statement) {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new AssertionError(statement + ": " + e.getMessage(), e);
        }
    }

    /** Standard error is one line, which says each of {@code parts}. */
    private static void assertOneLine(String err, String... parts) {
        assertEquals(1, err.strip().lines().count(), err);
        for (String part : parts) {
            assertTrue(err.contains(part), "'" + part + "' in: " + err);
        }
    }
}

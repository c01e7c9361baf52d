package dev.gauntlet.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.example.checks.PutLedger;
import dev.gauntlet.example.workload.KvWorkload;
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

/** The example workload end to end against a real PostgreSQL, as docs/adding-a-workload.md promises. */
@ExtendWith(PostgresExtension.class)
class KvCommandTest {

    static CommandRun kv(TestDatabase db, String command, String... args) {
        return CommandRun.of(new KvCommand(), db, command, args);
    }


    private static void assertSucceeds(CommandRun o) {
        assertEquals(0, o.code(), o.err() + o.out());
    }

    @Test
    void aRunMeasuresBothOperationsAndEveryPutIsInTheVersions(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("kv_run");
        assertSucceeds(kv(db, "init", "--keys", "2000", "--value-size", "64"));
        Path out = tmp.resolve("run");
        CommandRun run = kv(db, "run", "--duration", "2s", "--warmup", "1s", "--clients", "2", "--read-percent", "50",
                "--report-every", "1s", "--out", out.toString());
        assertEquals(0, run.code(), run.err());
        RunResult r = ResultFile.read(out);
        long gets = r.operation(KvWorkload.GET).orElseThrow().count();
        long puts = r.committedOverall(KvWorkload.PUT);
        assertTrue(puts > r.operation(KvWorkload.PUT).orElseThrow().count(), "the warm-up's puts are in the data too");
        assertTrue(gets > 0 && puts > 0, gets + " gets, " + puts + " puts");
        // Over the whole run (an operation at a phase boundary may have its count in one phase, its bytes in the next).
        long bytesRead = r.phases().stream().mapToLong(p -> p.operations().get(KvWorkload.GET).counters()
                .getOrDefault("bytesRead", 0L)).sum();
        assertEquals(r.committedOverall(KvWorkload.GET) * 64, bytesRead,
                "every get read one 64-byte value, counted by the operation");
        assertTrue(r.metrics().get("readMiBPerSecond") > 0);
        assertTrue(r.command().startsWith("bench-kv run --url "), r.command());
        assertEquals(2000L, ((Number) r.parameters().get("keys")).longValue());
        assertEquals("direct", r.parameters().get("pool"));
        Check ledger = r.checks().stream().filter(c -> c.name().equals(PutLedger.CHECK)).findFirst().orElseThrow();
        assertEquals(Check.Status.PASS, ledger.status(), ledger.detail());
        assertTrue(ledger.detail().contains("committed " + puts + " puts"), ledger.detail());
        assertTrue(r.checks().stream().allMatch(c -> c.status() == Check.Status.PASS), r.checks().toString());

        // The ledger is a check that can fail: a put the runner never counted breaks it.
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            PutLedger ledgerNow = PutLedger.open(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE kv SET version = version + 1 WHERE k = 7");
            }
            Check uncounted = ledgerNow.check(c, r);
            assertEquals(Check.Status.FAIL, uncounted.status(), uncounted.detail());
            assertTrue(uncounted.detail().startsWith("sum(version) rose by 1; "), uncounted.detail());
        }
    }

    @Test
    void primeAutoTakesABoundAndABadOneIsOneLine(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("kv_prime");
        assertSucceeds(kv(db, "init", "--keys", "200"));
        Path out = tmp.resolve("run");
        // auto:MOST primes until the compilers settle (they do not in a second), at most MOST, not a quarter of the run.
        CommandRun run = kv(db, "run", "--duration", "2s", "--clients", "2", "--prime", "auto:1s", "--out",
                out.toString());
        assertSucceeds(run);
        RunResult r = ResultFile.read(out);
        assertTrue(String.valueOf(r.parameters().get("prime")).matches("until .*, at most 1s"), r.parameters().toString());
        for (String bad : List.of("auto:soon", "automatic", "auto:-1s")) {
            CommandRun refused = kv(db, "run", "--duration", "1s", "--prime", bad, "--out", tmp.resolve(bad).toString());
            assertNotEquals(0, refused.code(), bad);
            assertTrue(refused.err().strip().startsWith("run: --prime " + bad + ": "), refused.err());
            assertEquals(1, refused.err().strip().lines().count(), refused.err());
            assertFalse(Files.exists(tmp.resolve(bad).resolve(ResultFile.NAME)), bad);
        }
    }

    /** The test database as a --store URL: credentials in the URL, as a CI secret would give them. */
    private static String storeUrl(TestDatabase db) {
        String url = db.jdbcUrl() + (db.jdbcUrl().contains("?") ? "&" : "?") + "user=" + db.user();
        return db.password() == null ? url : url + "&password=" + db.password();
    }

    @Test
    void labelledRunsKeptInAStoreMakeOneHistory(TestDatabase server, @TempDir Path tmp) throws Exception {
        TestDatabase db = server.freshDatabase("kv_store");
        assertSucceeds(kv(db, "init", "--keys", "500"));
        String store = storeUrl(db);
        for (int i = 1; i <= 2; i++) {
            CommandRun run = kv(db, "run", "--duration", "1s", "--clients", "1", "--label", "build=" + i,
                    "--store", store, "--out", tmp.resolve("run-" + i).toString());
            assertSucceeds(run);
            assertTrue(run.out().contains("Stored: run "), run.out());
        }
        assertEquals(java.util.Map.of("build", "2"), ResultFile.read(tmp.resolve("run-2")).labels());
        try (Connection c = db.connect(); Statement s = c.createStatement();
             java.sql.ResultSet rows = s.executeQuery("SELECT count(*), count(DISTINCT series), "
                     + "string_agg(labels->>'build', ',' ORDER BY started_at) FROM gauntlet_results")) {
            rows.next();
            assertEquals(2, rows.getInt(1));
            assertEquals(1, rows.getInt(2), "labels do not split the series");
            assertEquals("1,2", rows.getString(3));
        }
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cli = dev.gauntlet.core.cli.GauntletCommandLine.create(new KvCommand());
        cli.setOut(new java.io.PrintWriter(out, true));
        Path history = tmp.resolve("history");
        assertEquals(0, cli.execute("report", "history", "--store", store, "--out", history.toString()), out::toString);
        assertTrue(out.toString().contains("2 runs in 1 series"), out.toString());
        String md = Files.readString(history.resolve("history.md"));
        assertTrue(md.contains("build=1") && md.contains("build=2"), md);

        // A store that cannot be reached is refused before the run starts: nothing measured is lost, no secret shown.
        CommandRun bad = kv(db, "run", "--duration", "1s", "--store",
                "jdbc:postgresql://127.0.0.1:1/nowhere?user=ci&password=hunter2", "--out", tmp.resolve("bad").toString());
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("cannot keep results in jdbc:postgresql://127.0.0.1:1/nowhere"), bad.err());
        assertTrue(!bad.err().contains("hunter2") && !bad.out().contains("hunter2"), bad.err());
        assertTrue(!Files.exists(tmp.resolve("bad")), "no run directory for a run that never started");
    }

    @Test
    void checkNamesTheFirstMissingKeyAndExitsOne(TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("kv_check");
        assertSucceeds(kv(db, "init", "--keys", "500"));
        assertSucceeds(kv(db, "check"));
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.executeUpdate("DELETE FROM kv WHERE k IN (42, 43)");
        }
        CommandRun check = kv(db, "check", "--keys", "500");
        assertEquals(1, check.code(), check.out());
        assertTrue(check.out().contains("FAIL  every loaded key is present"), check.out());
        assertTrue(check.out().contains("missing_key=42"), check.out());
    }

    @Test
    void aTwoByTwoMatrixOfServerSettingAndPoolModeWritesOneComparison(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("kv_matrix");
        assertSucceeds(kv(db, "init", "--keys", "1000"));
        Path file = tmp.resolve("commit.exp");
        Files.writeString(file, String.join("\n",
                "title: synchronous_commit x pool mode",
                "variant on  = ALTER SYSTEM SET synchronous_commit = on; SELECT pg_reload_conf()",
                "variant off = ALTER SYSTEM SET synchronous_commit = off; SELECT pg_reload_conf()",
                "level pool direct =",
                "level pool pooled =",
                "restore = ALTER SYSTEM RESET synchronous_commit; SELECT pg_reload_conf()", ""));
        Path out = tmp.resolve("matrix");
        CommandRun run = kv(db, "run", "--experiment", file.toString(), "--duration", "1s", "--clients", "2",
                "--pool-size", "1", "--report-every", "1s", "--read-percent", "50", "--out", out.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        for (String cell : List.of("on+direct", "on+pooled", "off+direct", "off+pooled")) {
            RunResult r = ResultFile.read(out.resolve(cell));
            assertEquals(cell.endsWith("pooled") ? "pooled" : "direct", r.parameters().get("pool"), cell);
            assertEquals(cell.startsWith("on") ? "on" : "off", r.parameters().get("setting synchronous_commit"), cell);
            assertEquals(cell.replace('+', ' ').replace(" ", " / "), r.variant());
            assertTrue(r.checks().stream().allMatch(c -> c.status() == Check.Status.PASS), cell + ": " + r.checks());
        }
        String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains("## `on / direct` vs `off / pooled`"), md);
    }
}

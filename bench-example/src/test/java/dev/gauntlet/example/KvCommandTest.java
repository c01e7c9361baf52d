package dev.gauntlet.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

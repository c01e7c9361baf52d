package dev.gauntlet.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.script.checks.RunInvariants;
import dev.gauntlet.script.workload.HistoryLedger;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** bench-script run against a real PostgreSQL: the built-ins with their checks, a script of every kind of command. */
@ExtendWith(PostgresExtension.class)
class RunCommandTest {

    private static TestDatabase db;

    @BeforeAll
    static void tables(TestDatabase server) {
        db = server.freshDatabase("script_run");
        CommandRun init = script(db, "init", "-s", "1");
        assertEquals(0, init.code(), init.err() + init.out());
    }

    static CommandRun script(TestDatabase on, String command, String... args) {
        return CommandRun.of(new ScriptCommand(), on, command, args);
    }

    @Test
    void tpcbLikePrintsPgbenchsSummaryAndEveryCommitHeardIsInTheHistory(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CommandRun run = script(db, "run", "-c", "2", "-t", "150", "-M", "prepared", "-r", "--random-seed", "7",
                "--out", out.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        String o = run.out();
        for (String line : List.of("starting vacuum...end.", "transaction type: <builtin: TPC-B (sort of)>",
                "scaling factor: 1", "query mode: prepared", "number of clients: 2", "maximum number of tries: 1",
                "number of transactions per client: 150", "number of transactions actually processed: 300/300",
                "number of failed transactions: 0 (0.000%)", "SQL script 1: <builtin: TPC-B (sort of)>",
                " - statement latencies in milliseconds and failed tries")) {
            assertTrue(o.contains(line + "\n") || o.contains(line), "missing '" + line + "' in:\n" + o);
        }
        assertTrue(o.matches("(?s).*\\n +[0-9.]+ +0  UPDATE pgbench_accounts SET abalance = abalance \\+ :delta WHERE "
                + "aid = :aid;\\n.*"), o);
        assertTrue(o.contains("tpcb-like  "), "Gauntlet's percentiles per script:\n" + o);
        RunResult r = ResultFile.read(out);
        assertEquals(300, r.operation("tpcb-like").orElseThrow().count());
        assertTrue(r.metrics().get("tps") > 0);
        double trips = r.metrics().get("roundTripsPerOperation");
        assertTrue(trips > 5.9 && trips < 6.5, "BEGIN goes with the first UPDATE: six round trips, not pgbench's seven, "
                + "got " + trips);
        for (String name : List.of(RunInvariants.ACCOUNTS, RunInvariants.BRANCHES, RunInvariants.HEARD)) {
            Check c = r.checks().stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow();
            assertEquals(Check.Status.PASS, c.status(), c.detail());
        }
        assertTrue(r.parameters().get("notes").toString().contains("intended start"), r.parameters().toString());
        assertTrue(r.parameters().get("notes").toString().contains("with -r that BEGIN's latency is about 0"),
                r.parameters().toString());
        try (Connection c = db.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pgbench_history")) {
            rs.next();
            assertEquals(300, rs.getLong(1), "pgbench's vacuum emptied the history first");
        }

        // The history check can fail: a commit heard whose row is gone is named by its values.
        Path ledger = out.resolve(HistoryLedger.FILE);
        List<HistoryLedger.Row> rows = new ArrayList<>();
        HistoryLedger.forEach(ledger, b -> rows.add(HistoryLedger.row(b)));
        assertEquals(300, rows.size());
        HistoryLedger.Row gone = rows.get(17);
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            RunInvariants.Sums before = RunInvariants.Sums.read(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM pgbench_history WHERE ctid = (SELECT ctid FROM pgbench_history WHERE aid = "
                        + gone.aid() + " AND tid = " + gone.tid() + " AND bid = " + gone.bid() + " AND delta = "
                        + gone.delta() + " LIMIT 1)");
                s.executeUpdate("UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1");
            }
            List<Check> after = RunInvariants.after(c, before, ledger, rows.size());
            Check heard = after.stream().filter(k -> k.name().equals(RunInvariants.HEARD)).findFirst().orElseThrow();
            assertEquals(Check.Status.FAIL, heard.status(), heard.detail());
            assertTrue(heard.detail().startsWith("1 of 300 heard commit are not in pgbench_history: (aid " + gone.aid()
                    + ", tid " + gone.tid() + ", bid " + gone.bid() + ", delta " + gone.delta() + ")"), heard.detail());
            Check accounts = after.stream().filter(k -> k.name().equals(RunInvariants.ACCOUNTS)).findFirst().orElseThrow();
            assertEquals(gone.delta() == 0 ? Check.Status.PASS : Check.Status.FAIL, accounts.status(), accounts.detail());
            Check branches = after.stream().filter(k -> k.name().equals(RunInvariants.BRANCHES)).findFirst().orElseThrow();
            assertEquals(Check.Status.FAIL, branches.status(), branches.detail());
        }
    }

    private static void freshOutTable() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("DROP TABLE IF EXISTS script_out");
            s.execute("CREATE TABLE script_out (client int, name text, value text)");
        }
    }

    private static List<String> rows(String sql) throws Exception {
        List<String> seen = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? " " : "").append(rs.getString(i));
                }
                seen.add(b.toString());
            }
        }
        return seen;
    }

    private static final String OUT_TABLE = "SELECT client, name, value, count(*) FROM script_out GROUP BY 1, 2, 3 "
            + "ORDER BY 1, 2";

    /**
     * The script_out rows a bench-script run with {@code args} leaves, after checking that pgbench 15 leaves the same
     * where this machine has one.
     */
    private static List<String> rowsLikePgbenchs(Path out, String... args) throws Exception {
        freshOutTable();
        List<String> withOut = new ArrayList<>(List.of(args));
        withOut.addAll(List.of("--out", out.toString()));
        CommandRun run = script(db, "run", withOut.toArray(String[]::new));
        assertEquals(0, run.code(), run.err() + run.out());
        List<String> gauntlet = rows(OUT_TABLE);
        java.util.Optional<RealPgbench> pgbench = RealPgbench.available();
        if (pgbench.isPresent()) {
            freshOutTable();
            pgbench.get().succeed(db, args);
            assertEquals(rows(OUT_TABLE), gauntlet, "the rows pgbench 15 leaves");
        }
        return gauntlet;
    }

    @Test
    void aScriptOfEveryKindOfCommandRunsAsPgbenchRunsIt(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("every.sql");
        Files.writeString(file, String.join("\n",
                "-- every kind of command",
                "\\set n 6 * 7",
                "\\set h hash_fnv1a(:n, 5)",
                "\\if :n > 40",
                "  \\set branch 3",
                "\\elif :n > 10",
                "  \\set branch 2",
                "\\else",
                "  \\set branch 1",
                "\\endif",
                "SELECT :n::int + 1 AS plus, 'x' || :client_id AS who \\gset p_",
                "SELECT 1 AS one, 2 AS two \\aset",
                "\\setshell shelled echo 12",
                "\\sleep 1 ms",
                "\\startpipeline",
                "INSERT INTO script_out VALUES (:client_id, 'n', :n);",
                "INSERT INTO script_out VALUES (:client_id, 'plus', :p_plus);",
                "\\endpipeline",
                "INSERT INTO script_out VALUES (:client_id, 'who', :p_who),",
                "  (:client_id, 'sum', :one::int + :two::int + :shelled::int), (:client_id, 'defined', :greeting),",
                "  (:client_id, 'scale', :scale), (:client_id, 'h', :h), (:client_id, 'branch', :branch);",
                ""));
        // -M extended: each value a parameter, so text needs no quotes (a reference in quotes would be one too).
        List<String> gauntlet = rowsLikePgbenchs(tmp.resolve("run"), "-n", "-f", file.toString(), "-c", "2", "-t", "3",
                "-M", "extended", "-D", "greeting=hello");
        List<String> expected = new ArrayList<>();
        for (int client = 0; client < 2; client++) {
            expected.addAll(List.of(client + " branch 3 3", client + " defined hello 3",
                    client + " h " + fnv1a(42, 5) + " 3", client + " n 42 3", client + " plus 43 3",
                    client + " scale 1 3", client + " sum 15 3", client + " who x" + client + " 3"));
        }
        assertEquals(expected, gauntlet);
    }

    @Test
    void theSimpleProtocolWritesValuesIntoTheTextAsPgbenchDoes(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("simple.sql");
        Files.writeString(file, String.join("\n",
                "\\set x 7",
                "SELECT 1 AS one \\; SELECT 'two:x' AS two \\aset",
                "SELECT 'a' AS letter \\; SELECT 'b' AS letter \\gset g_",
                "INSERT INTO script_out VALUES (:client_id, 'quoted', ':x'), (:client_id, 'aset', :one || ' ' || ':two'),",
                "  (:client_id, 'gset', ':g_letter'), (:client_id, 'cast', 3::text), (:client_id, 'nothing', ':nothing');",
                ""));
        List<String> gauntlet = rowsLikePgbenchs(tmp.resolve("run"), "-n", "-f", file.toString(), "-c", "1", "-t", "2");
        // Even inside the literal 'two:x' the :x is substituted (by both), as is ':x'; ':nothing' is left as written.
        assertEquals(List.of("0 aset 1 two7 2", "0 cast 3 2", "0 gset b 2", "0 nothing :nothing 2", "0 quoted 7 2"),
                gauntlet);
    }

    /** A block begun with options is sent as written; a bare BEGIN goes with the statement after it. */
    @ParameterizedTest
    @ValueSource(strings = {"BEGIN ISOLATION LEVEL SERIALIZABLE;", "begin;\nSET TRANSACTION ISOLATION LEVEL SERIALIZABLE;"})
    void aTransactionBlockThatFailsIsRolledBackAndTriedAgain(String begin, @TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("serializable.sql");
        Files.writeString(file, String.join("\n",
                begin,
                "UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;",
                "SELECT pg_sleep(0.002);",
                "UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = 1;",
                "END;", ""));
        long before = Long.parseLong(rows("SELECT bbalance - tbalance FROM pgbench_branches, pgbench_tellers "
                + "WHERE pgbench_branches.bid = 1 AND tid = 1").get(0));
        Path out = tmp.resolve("run");
        CommandRun run = script(db, "run", "-n", "-f", file.toString(), "-c", "4", "-t", "25", "--max-tries", "100",
                "--out", out.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        RunResult r = ResultFile.read(out);
        assertEquals(100, r.operation("serializable.sql").orElseThrow().count(), run.out());
        assertTrue(r.totalRetries() > 0, "concurrent updates of one row at SERIALIZABLE were retried: " + run.out());
        assertTrue(run.out().contains("number of transactions retried: "), run.out());
        // Each retry ran after its aborted block had ended (no try ran inside another's): branch and teller moved
        // together. A retry inside the aborted block would fail every time ("current transaction is aborted").
        assertEquals(List.of(String.valueOf(before)), rows("SELECT bbalance - tbalance FROM pgbench_branches, "
                + "pgbench_tellers WHERE pgbench_branches.bid = 1 AND tid = 1"));
    }

    @Test
    void theSameSeedDrawsPgbenchsTransactions(@TempDir Path tmp) throws Exception {
        String history = "SELECT aid, tid, bid, delta, count(*) FROM pgbench_history GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4";
        CommandRun run = script(db, "run", "-c", "3", "-j", "3", "-t", "40", "--random-seed", "20261202", "--out",
                tmp.resolve("run").toString());
        assertEquals(0, run.code(), run.err() + run.out());
        List<String> gauntlet = rows(history);
        assertEquals(120, gauntlet.stream().mapToLong(r -> Long.parseLong(r.substring(r.lastIndexOf(' ') + 1))).sum());
        RealPgbench.require().succeed(db, "-c", "3", "-j", "3", "-t", "40", "--random-seed", "20261202");
        assertEquals(gauntlet, rows(history), "pgbench with the same seed ran the same 120 transactions");
    }

    /** pgbench's hash_fnv1a, written out: FNV-1a over the value's 8 bytes, low byte first, offset basis xor seed. */
    private static long fnv1a(long value, long seed) {
        long h = 0xcbf29ce484222325L ^ seed;
        for (int i = 0; i < 8; i++) {
            h ^= (value >>> (8 * i)) & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    @Test
    void pgbenchsOptionsThatAreNotSupportedAreRefusedByName() {
        CommandRun connect = script(db, "run", "-C", "-t", "1");
        assertTrue(connect.code() != 0, connect.out());
        assertTrue(connect.err().contains("pgbench's -C is not supported"), connect.err());
        CommandRun host = script(db, "run", "-h", "db.example", "-t", "1");
        assertTrue(host.err().contains("pgbench's -h is not supported") && host.err().contains("--url"),
                host.err());
        CommandRun tablespace = script(db, "run", "--tablespace=fast", "-t", "1");
        assertTrue(tablespace.code() != 0 && tablespace.err().contains("pgbench's --tablespace is not supported by "
                + "bench-script run: an init option"), tablespace.err());
        CommandRun split = script(db, "run", "-c", "4", "-t", "1", "--worker", "1/2", "--start-at", "2026-12-02T00:00:00Z");
        assertTrue(split.code() != 0 && split.err().contains("--worker 1/2 needs -n"), split.err());
        CommandRun both = script(db, "run", "-c", "2", "--clients", "3", "-t", "1");
        assertTrue(both.code() != 0 && both.err().contains("-c and --clients are the same setting"), both.err());
        CommandRun define = script(db, "run", "-D", "1x=5", "-t", "1");
        assertTrue(define.code() != 0 && define.err().contains("invalid variable name: \"1x\""), define.err());
        CommandRun mode = script(db, "run", "-M", "fast", "-t", "1");
        assertTrue(mode.code() != 0 && mode.err().contains("invalid query mode (-M): \"fast\""), mode.err());
    }

    /** An objective naming no operation of the run is refused before the run's preparation: no vacuum, no --out. */
    @Test
    void anObjectiveOnAnUnknownOperationIsRefusedBeforeAnythingRuns(@TempDir Path tmp) {
        Path out = tmp.resolve("slo");
        CommandRun run = script(db, "run", "-b", "select-only", "-t", "1", "--slo", "p99(select) <= 5ms",
                "--out", out.toString());
        assertEquals(2, run.code(), run.out());
        assertTrue(run.err().contains("--slo 'p99(select) <= 5ms': no operation 'select' (this workload's: "
                + "select-only)"), run.err());
        assertTrue(!run.out().contains("starting vacuum") && !Files.exists(out), run.out());
    }

    @Test
    void aBadScriptIsRefusedWithItsFileAndLineBeforeAnythingRuns(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("bad.sql");
        Files.writeString(file, "SELECT 1;\n\\set x 1 +\n");
        CommandRun run = script(db, "run", "-n", "-f", file.toString(), "-t", "1");
        assertTrue(run.code() != 0, run.out());
        assertTrue(run.err().contains(file + ":2: syntax error"), run.err());
        Path unknown = tmp.resolve("unknown.sql");
        Files.writeString(unknown, "\\bogus 1\n");
        CommandRun meta = script(db, "run", "-n", "-f", unknown.toString(), "-t", "1");
        assertTrue(meta.code() != 0 && meta.err().contains(unknown + ":1: invalid command in command \"bogus\""),
                meta.err());
    }
}

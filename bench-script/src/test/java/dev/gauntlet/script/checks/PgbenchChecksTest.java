package dev.gauntlet.script.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.script.TablesOnlyCommand;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each TPC-B check passes on the tables as loaded, fails on a table tampered with in the way it guards against,
 * naming the offender, and passes again once the tampering is undone.
 */
@ExtendWith(PostgresExtension.class)
class PgbenchChecksTest {

    private static TestDatabase db;

    @BeforeAll
    static void load(TestDatabase server) {
        db = server.freshDatabase("pgtables_checks");
        CommandRun init = CommandRun.of(new TablesOnlyCommand(), db, "init", "-s", "1");
        assertEquals(0, init.code(), init.err());
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String statement : sql.split(";")) {
                s.execute(statement);
            }
        }
    }

    private static List<Check> checks(boolean simpleUpdateRan) throws SQLException {
        try (Connection c = db.connect()) {
            return TpcbChecks.run(c, PgbenchSchema.loaded(c), simpleUpdateRan);
        }
    }

    private static void assertAllPass(List<Check> checks) {
        List<Check> failed = checks.stream().filter(k -> k.status() != Check.Status.PASS).toList();
        assertTrue(failed.isEmpty(), failed.toString());
    }

    private static Check named(List<Check> checks, String name) {
        return checks.stream().filter(k -> k.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + checks.stream().map(Check::name)
                        .collect(Collectors.joining("; "))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "UPDATE pgbench_accounts SET abalance = abalance + 7 WHERE aid = 42"
                    + "| UPDATE pgbench_accounts SET abalance = abalance - 7 WHERE aid = 42"
                    + "| sum(abalance) = sum(bbalance) = sum(tbalance) = sum(delta)"
                    + "| 1 violation: sum(abalance)=7 sum(bbalance)=0 sum(tbalance)=0 sum(delta)=0",
            "DELETE FROM pgbench_accounts WHERE aid = 42"
                    + "| INSERT INTO pgbench_accounts VALUES (42, 1, 0, '')"
                    + "| pgbench_accounts holds aid 1..100000"
                    + "| 1 violation: aid=42 problem=missing",
            "INSERT INTO pgbench_accounts VALUES (100001, 2, 0, '')"
                    + "| DELETE FROM pgbench_accounts WHERE aid = 100001"
                    + "| pgbench_accounts holds aid 1..100000"
                    + "| 1 violation: aid=100001 problem=outside 1..100000",
            "DELETE FROM pgbench_tellers WHERE tid = 10"
                    + "| INSERT INTO pgbench_tellers VALUES (10, 1, 0, NULL)"
                    + "| pgbench_tellers holds tid 1..10"
                    + "| 1 violation: tid=10 problem=missing",
            "UPDATE pgbench_branches SET bid = 2"
                    + "| UPDATE pgbench_branches SET bid = 1"
                    + "| pgbench_branches holds bid 1..1"
                    + "| 1 violation: bid=2 problem=outside 1..1",
            "UPDATE pgbench_tellers SET bid = 2 WHERE tid = 3"
                    + "| UPDATE pgbench_tellers SET bid = 1 WHERE tid = 3"
                    + "| every pgbench_tellers row has bid (tid - 1) / 10 + 1"
                    + "| 1 violation: tid=3 bid=2",
            "UPDATE pgbench_accounts SET bid = NULL WHERE aid IN (99, 100)"
                    + "| UPDATE pgbench_accounts SET bid = 1 WHERE aid IN (99, 100)"
                    + "| every pgbench_accounts row has bid (aid - 1) / 100000 + 1"
                    + "| 2 violations, first: aid=99 bid=null",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (11, 1, 5, 0, now())"
                    + "| DELETE FROM pgbench_history"
                    + "| every history row names an existing account, teller and branch"
                    + "| aid=5 tid=11 bid=1",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 5, 5001, now())"
                    + "| DELETE FROM pgbench_history"
                    + "| every history delta is in -5000..5000"
                    + "| aid=5 tid=1 bid=1 delta=5001",
            "ALTER TABLE pgbench_tellers DROP CONSTRAINT pgbench_tellers_pkey"
                    + "| ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)"
                    + "| pgbench_branches, pgbench_tellers and pgbench_accounts have their primary keys"
                    + "| 1 violation: table_without_primary_key=pgbench_tellers"})
    void eachCheckFailsOnTheTamperingItGuardsAgainst(String tamper, String undo, String check, String detail)
            throws Exception {
        assertAllPass(checks(false));
        execute(tamper);
        try {
            Check failed = named(checks(false), check);
            assertEquals(Check.Status.FAIL, failed.status(), failed.toString());
            assertTrue(failed.detail().contains(detail), failed.detail());
        } finally {
            execute(undo);
        }
        assertAllPass(checks(false));
    }

    /** simple-update (-N) moves accounts and history only: all four sums then disagree, the two pairs do not. */
    @Test
    void withSimpleUpdateRunsTheSumsAreCheckedInPairs() throws Exception {
        execute("UPDATE pgbench_accounts SET abalance = abalance + 5 WHERE aid = 1;"
                + "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 5, now())");
        try {
            assertEquals(Check.Status.FAIL, named(checks(false), TpcbChecks.ALL_SUMS).status());
            List<Check> paired = checks(true);
            assertAllPass(paired);
            assertEquals(List.of(TpcbChecks.ACCOUNT_SUMS, TpcbChecks.BRANCH_SUMS),
                    paired.stream().map(Check::name).limit(2).toList());

            execute("UPDATE pgbench_branches SET bbalance = bbalance + 5");
            Check branches = named(checks(true), TpcbChecks.BRANCH_SUMS);
            assertEquals(Check.Status.FAIL, branches.status());
            assertEquals("1 violation: sum(abalance)=5 sum(bbalance)=5 sum(tbalance)=0 sum(delta)=5",
                    branches.detail());
            execute("UPDATE pgbench_tellers SET tbalance = tbalance + 5 WHERE tid = 2");
            assertAllPass(checks(false));
        } finally {
            execute("UPDATE pgbench_accounts SET abalance = 0; UPDATE pgbench_tellers SET tbalance = 0;"
                    + "UPDATE pgbench_branches SET bbalance = 0; DELETE FROM pgbench_history");
        }
    }

    /** The generic check command: exit 1 and one line naming the failed check. */
    @Test
    void theCheckCommandExitsOneNamingTheFailedCheck() throws Exception {
        CommandRun pass = CommandRun.of(new TablesOnlyCommand(), db, "check");
        assertEquals(0, pass.code(), pass.out() + pass.err());
        assertTrue(pass.out().contains("Checking the pgbench tables at scale 1 (100,000 accounts) in one snapshot"),
                pass.out());
        execute("UPDATE pgbench_tellers SET tbalance = -3 WHERE tid = 4");
        try {
            CommandRun fail = CommandRun.of(new TablesOnlyCommand(), db, "check");
            assertEquals(1, fail.code(), fail.out());
            assertEquals("check: pgbench checks failed: " + TpcbChecks.ALL_SUMS, fail.err().strip());
            assertTrue(fail.out().contains("sum(tbalance)=-3"), fail.out());
            CommandRun paired = CommandRun.of(new TablesOnlyCommand(), db, "check", "-N");
            assertEquals(1, paired.code(), paired.out());
            assertEquals("check: pgbench checks failed: " + TpcbChecks.BRANCH_SUMS, paired.err().strip());
        } finally {
            execute("UPDATE pgbench_tellers SET tbalance = 0 WHERE tid = 4");
        }
    }
}

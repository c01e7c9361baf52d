package dev.gauntlet.sql.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check.Status;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A table of {@link SqlCheck}s run by {@link SqlChecks} on a real PostgreSQL, over a ledger of four accounts
 * whose balances should equal the sum of their entries; accounts 3 and 4 do not.
 */
@ExtendWith(PostgresExtension.class)
class SqlChecksTest {

    private static final String HOW_TO_RUN_EXPENSIVE = "run with --expensive-checks";

    /** Holds: every entry belongs to an account. */
    private static final SqlCheck ENTRIES_HAVE_ACCOUNTS = check("entries have accounts", """
            SELECT e.account_id, e.amount FROM entry AS e
            WHERE NOT EXISTS (SELECT 1 FROM account AS a WHERE a.id = e.account_id)""", "account_id");

    /** Broken for accounts 3 and 4. */
    private static final SqlCheck BALANCE_IS_SUM_OF_ENTRIES = check("balance = sum(amount) per account", """
            SELECT a.id, a.balance, coalesce(e.amount, 0) AS "sum(amount)"
            FROM account AS a
            LEFT JOIN (SELECT account_id, sum(amount) AS amount FROM entry GROUP BY account_id) AS e
              ON e.account_id = a.id
            WHERE a.balance <> coalesce(e.amount, 0)""", "id");

    static TestDatabase db;

    @BeforeAll
    static void ledger(TestDatabase server) throws SQLException {
        db = server.freshDatabase("sql_checks_test");
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id int PRIMARY KEY, balance numeric(10,2) NOT NULL)");
            s.execute("CREATE TABLE entry (account_id int NOT NULL, amount numeric(10,2) NOT NULL)");
            s.execute("INSERT INTO account VALUES (1, 10.00), (2, 5.00), (3, 7.00), (4, 0.00)");
            s.execute("INSERT INTO entry VALUES (1, 10.00), (2, 2.00), (2, 3.00), (3, 6.00), (4, 1.00)");
        }
    }

    @Test
    void aCheckWithoutViolationsPasses() throws SQLException {
        assertEquals(List.of(Check.pass("entries have accounts", "")), run(List.of(ENTRIES_HAVE_ACCOUNTS), true,
                asLoaded()));
    }

    @Test
    void aFailingCheckNamesItsFirstOffenderAndCountsThemAll() throws SQLException {
        SqlCheck lastFirst = SqlCheck.named("balance = sum(amount), last account first")
                .violations(BALANCE_IS_SUM_OF_ENTRIES.violations()).rowKey("id DESC").build();
        SqlCheck oneOffender = check("no empty account", "SELECT id, balance FROM account WHERE balance = 0", "id");

        List<Check> checks = run(List.of(BALANCE_IS_SUM_OF_ENTRIES, lastFirst, oneOffender), true, asLoaded());

        assertEquals(Check.fail("balance = sum(amount) per account",
                "2 violations, first: id=3 balance=7.00 sum(amount)=6.00"), checks.get(0));
        assertEquals("2 violations, first: id=4 balance=0.00 sum(amount)=1.00", checks.get(1).detail(),
                "the row key decides which offender comes first");
        assertEquals(Check.fail("no empty account", "1 violation: id=4 balance=0.00"), checks.get(2));
    }

    @Test
    void offendersBeyondThoseFetchedAreStillCounted() throws SQLException {
        SqlCheck many = check("twenty offenders", "SELECT n FROM generate_series(1, 20) AS n", "n");

        assertEquals("20 violations, first: n=1", run(List.of(many), true, asLoaded()).get(0).detail());
    }

    @Test
    void expensiveChecksAreSkippedUnlessIncluded() throws SQLException {
        SqlCheck expensive = SqlCheck.named("entries have accounts (expensive)")
                .violations(ENTRIES_HAVE_ACCOUNTS.violations()).rowKey(ENTRIES_HAVE_ACCOUNTS.rowKey())
                .expensive().build();
        List<SqlCheck> checks = List.of(expensive, ENTRIES_HAVE_ACCOUNTS);

        assertEquals(List.of(Check.skip(expensive.name(), "expensive; run with --expensive-checks"),
                Check.pass(ENTRIES_HAVE_ACCOUNTS.name(), "")), run(checks, false, asLoaded()));
        assertEquals(List.of(Check.pass(expensive.name(), ""), Check.pass(ENTRIES_HAVE_ACCOUNTS.name(), "")),
                run(checks, true, asLoaded()));
    }

    @Test
    void loadOnlyChecksAreSkippedOnceTheDataHasChangedAndTheQuestionIsAskedOnce() throws SQLException {
        SqlCheck twoEntriesAtMost = loadOnly("at most two entries per account, as loaded", """
                SELECT account_id, count(*) AS entries FROM entry GROUP BY account_id HAVING count(*) > 2""",
                "account_id");
        SqlCheck fourAccounts = loadOnly("four accounts, as loaded", """
                SELECT count(*) AS accounts FROM account HAVING count(*) <> 4""", "accounts");
        List<SqlCheck> checks = List.of(ENTRIES_HAVE_ACCOUNTS, twoEntriesAtMost, fourAccounts);
        AtomicInteger asked = new AtomicInteger();
        CheckScope.ChangeSinceLoad posted = snapshot -> {
            asked.incrementAndGet();
            return Optional.of("an entry was posted since the load");
        };

        assertEquals(List.of(Check.pass(ENTRIES_HAVE_ACCOUNTS.name(), ""),
                Check.skip(twoEntriesAtMost.name(), "an entry was posted since the load"),
                Check.skip(fourAccounts.name(), "an entry was posted since the load")), run(checks, true, posted));
        assertEquals(1, asked.get(), "asked once per run, however many checks depend on it");

        List<Check> asLoaded = run(checks, true, asLoaded());
        assertTrue(asLoaded.stream().allMatch(k -> k.status() == Status.PASS), asLoaded::toString);

        run(List.of(ENTRIES_HAVE_ACCOUNTS), true, posted);
        assertEquals(1, asked.get(), "not asked when no check depends on it");
    }

    @Test
    void aBrokenQueryFailsItsCheckWithTheMessageAndTheNextStillRuns() throws SQLException {
        SqlCheck broken = check("reads a table that is not there", "SELECT id FROM no_such_table", "id");

        List<Check> checks = run(List.of(broken, BALANCE_IS_SUM_OF_ENTRIES, ENTRIES_HAVE_ACCOUNTS), true, asLoaded());

        assertEquals(Status.FAIL, checks.get(0).status());
        assertTrue(checks.get(0).detail().startsWith("query failed: ")
                && checks.get(0).detail().contains("relation \"no_such_table\" does not exist"), checks.get(0).detail());
        assertEquals("2 violations, first: id=3 balance=7.00 sum(amount)=6.00", checks.get(1).detail(),
                "the snapshot is not aborted by the failed statement");
        assertEquals(Status.PASS, checks.get(2).status());
    }

    @Test
    void allChecksSeeOneSnapshot() throws SQLException {
        SqlCheck noAccount99 = loadOnly("no account 99", "SELECT id FROM account WHERE id = 99", "id");
        // Asked between the two checks: a concurrent transaction commits account 99 there.
        CheckScope.ChangeSinceLoad commitAccount99 = snapshot -> {
            try (Connection other = db.connect(); Statement s = other.createStatement()) {
                s.executeUpdate("INSERT INTO account VALUES (99, 0.00)");
            }
            return Optional.empty();
        };
        try {
            List<Check> checks = run(List.of(ENTRIES_HAVE_ACCOUNTS, noAccount99), true, commitAccount99);

            assertEquals(Check.pass("no account 99", ""), checks.get(1), "the commit came after the snapshot");
            assertEquals(Check.fail("no account 99", "1 violation: id=99"),
                    run(List.of(noAccount99), true, asLoaded()).get(0), "a new snapshot sees it");
        } finally {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM account WHERE id = 99");
            }
        }
    }

    @Test
    void theConnectionIsGivenBackAsItWasEvenAfterAFailure() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);

            SqlChecks.run(c, List.of(BALANCE_IS_SUM_OF_ENTRIES), new CheckScope(true, HOW_TO_RUN_EXPENSIVE,
                    asLoaded()));
            assertFalse(c.getAutoCommit());
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
            assertFalse(c.isReadOnly());

            c.setAutoCommit(true);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            SQLException failed = assertThrows(SQLException.class, () -> SqlChecks.run(c,
                    List.of(loadOnly("needs the probe", "SELECT 1 AS one WHERE false", "one")),
                    new CheckScope(true, HOW_TO_RUN_EXPENSIVE, snapshot -> {
                        throw new SQLException("probe failed");
                    })));
            assertEquals("probe failed", failed.getMessage());
            assertTrue(c.getAutoCommit());
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation());
            assertFalse(c.isReadOnly());
        }
    }

    private static SqlCheck check(String name, String violations, String rowKey) {
        return SqlCheck.named(name).violations(violations).rowKey(rowKey).build();
    }

    private static SqlCheck loadOnly(String name, String violations, String rowKey) {
        return SqlCheck.named(name).violations(violations).rowKey(rowKey).validOnlyOnLoadedData().build();
    }

    private static CheckScope.ChangeSinceLoad asLoaded() {
        return snapshot -> Optional.empty();
    }

    /** The checks in a snapshot of their own, on a connection of their own. */
    private static List<Check> run(List<SqlCheck> checks, boolean includeExpensive,
            CheckScope.ChangeSinceLoad changeSinceLoad) throws SQLException {
        try (Connection c = db.connect()) {
            return SqlChecks.run(c, checks, new CheckScope(includeExpensive, HOW_TO_RUN_EXPENSIVE, changeSinceLoad));
        }
    }
}

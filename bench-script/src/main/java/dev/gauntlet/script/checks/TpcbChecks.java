package dev.gauntlet.script.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlCheck;
import dev.gauntlet.sql.check.SqlChecks;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What holds of the pgbench tables after any number of runs of the built-in scripts, each a query for its offenders,
 * run in one snapshot. The balances: tpcb-like adds one delta to an account, a teller and a branch and writes it to
 * the history, simple-update ({@code -N}) only to the account and the history, select-only changes nothing; so
 * {@code sum(abalance) = sum(delta)} and {@code sum(bbalance) = sum(tbalance)} always hold, and all four sums are
 * equal unless simple-update ran. The rows: no built-in script adds or removes accounts, tellers or branches or
 * moves one to another branch, and each history row names an account, a teller and a branch drawn from their ranges
 * (independently: a teller need not be of the branch) with a delta of {@code random(-5000, 5000)}.
 */
public final class TpcbChecks {

    /** The four balances' sums, named as a failure names them. */
    private static final String SUMS = "SELECT a.s AS \"sum(abalance)\", b.s AS \"sum(bbalance)\", "
            + "t.s AS \"sum(tbalance)\", h.s AS \"sum(delta)\" FROM "
            + "(SELECT coalesce(sum(abalance), 0) AS s FROM pgbench_accounts) AS a, "
            + "(SELECT coalesce(sum(bbalance), 0) AS s FROM pgbench_branches) AS b, "
            + "(SELECT coalesce(sum(tbalance), 0) AS s FROM pgbench_tellers) AS t, "
            + "(SELECT coalesce(sum(delta), 0) AS s FROM pgbench_history) AS h";

    /** The name of the check of all four sums. */
    public static final String ALL_SUMS = "sum(abalance) = sum(bbalance) = sum(tbalance) = sum(delta)";
    /** The name of the check of the sums simple-update keeps. */
    public static final String ACCOUNT_SUMS = "sum(abalance) = sum(delta)";
    /** The name of the check of the sums tpcb-like alone changes. */
    public static final String BRANCH_SUMS = "sum(bbalance) = sum(tbalance)";
    /** The name of the check that the primary keys are there. */
    public static final String PRIMARY_KEYS = "pgbench_branches, pgbench_tellers and pgbench_accounts have their "
            + "primary keys";
    /** The name of the check of the history's deltas. */
    public static final String DELTAS = "every history delta is in -5000..5000";
    /** The name of the check of the history's ids. */
    public static final String HISTORY_IDS = "every history row names an existing account, teller and branch";

    private TpcbChecks() {
    }

    /** The name of the check that {@code table} holds ids {@code 1..rows}. */
    public static String idsCheck(String table, String id, long rows) {
        return table + " holds " + id + " 1.." + rows;
    }

    /** The name of the check that each row of {@code table} keeps the branch it was loaded in. */
    public static String branchCheck(String table, String id, int perBranch) {
        return "every " + table + " row has bid (" + id + " - 1) / " + perBranch + " + 1";
    }

    /**
     * The checks of {@code loaded}'s tables.
     *
     * @param simpleUpdateRan whether simple-update ({@code -N}) may have run: the branch and teller balances then
     *                        need not add up to the history's, only to each other
     */
    public static List<SqlCheck> table(PgbenchSchema.Loaded loaded, boolean simpleUpdateRan) {
        List<SqlCheck> checks = new ArrayList<>();
        if (simpleUpdateRan) {
            checks.add(sums(ACCOUNT_SUMS, "\"sum(abalance)\" <> \"sum(delta)\""));
            checks.add(sums(BRANCH_SUMS, "\"sum(bbalance)\" <> \"sum(tbalance)\""));
        } else {
            checks.add(sums(ALL_SUMS, "NOT (\"sum(abalance)\" = \"sum(bbalance)\" AND \"sum(bbalance)\" = "
                    + "\"sum(tbalance)\" AND \"sum(tbalance)\" = \"sum(delta)\")"));
        }
        checks.add(primaryKeys());
        checks.add(ids("pgbench_branches", "bid", loaded.branches()));
        checks.add(ids("pgbench_tellers", "tid", loaded.tellers()));
        checks.add(ids("pgbench_accounts", "aid", loaded.accounts()));
        checks.add(branches("pgbench_tellers", "tid", PgbenchSchema.NTELLERS));
        checks.add(branches("pgbench_accounts", "aid", PgbenchSchema.NACCOUNTS));
        checks.add(SqlCheck.named(HISTORY_IDS)
                .violations("SELECT mtime, aid, tid, bid FROM pgbench_history WHERE aid IS NULL OR tid IS NULL "
                        + "OR bid IS NULL OR aid NOT BETWEEN 1 AND " + loaded.accounts() + " OR tid NOT BETWEEN 1 AND "
                        + loaded.tellers() + " OR bid NOT BETWEEN 1 AND " + loaded.branches())
                .rowKey("mtime, aid, tid, bid").build());
        checks.add(SqlCheck.named(DELTAS)
                .violations("SELECT mtime, aid, tid, bid, delta FROM pgbench_history "
                        + "WHERE delta IS NULL OR delta NOT BETWEEN -5000 AND 5000")
                .rowKey("mtime, aid, tid, bid").build());
        return checks;
    }

    /** Runs {@link #table} in one read-only snapshot. */
    public static List<Check> run(Connection c, PgbenchSchema.Loaded loaded, boolean simpleUpdateRan)
            throws SQLException {
        return SqlChecks.run(c, table(loaded, simpleUpdateRan), CheckScope.all());
    }

    private static SqlCheck sums(String name, String disagree) {
        return SqlCheck.named(name).violations("SELECT * FROM (" + SUMS + ") AS sums WHERE " + disagree)
                .rowKey("\"sum(abalance)\"").build();
    }

    /** The three tables with rows by id each have their primary key (the id checks rely on it for uniqueness). */
    private static SqlCheck primaryKeys() {
        return SqlCheck.named(PRIMARY_KEYS)
                .violations("SELECT t AS table_without_primary_key FROM unnest(ARRAY['pgbench_branches', "
                        + "'pgbench_tellers', 'pgbench_accounts']) AS t WHERE NOT EXISTS (SELECT 1 FROM "
                        + "pg_catalog.pg_constraint k WHERE k.conrelid = to_regclass(t) AND k.contype = 'p')")
                .rowKey("table_without_primary_key").build();
    }

    /**
     * {@code table} holds {@code id}s 1..rows, each once (the primary key): the ids outside the range, and when the
     * count is not {@code rows} (asked once, before anything else is scanned) the ids missing from it.
     */
    private static SqlCheck ids(String table, String id, long rows) {
        return SqlCheck.named(idsCheck(table, id, rows))
                .violations("SELECT g AS " + id + ", 'missing' AS problem FROM generate_series(1, " + rows + ") AS g "
                        + "WHERE (SELECT count(*) FROM " + table + ") <> " + rows + " AND NOT EXISTS (SELECT 1 FROM "
                        + table + " AS r WHERE r." + id + " = g) "
                        + "UNION ALL SELECT " + id + ", 'outside 1.." + rows + "' FROM " + table + " WHERE " + id
                        + " < 1 OR " + id + " > " + rows)
                .rowKey(id).build();
    }

    /** Each row of {@code table} is in the branch pgbench loaded it in: none is moved by a built-in script. */
    private static SqlCheck branches(String table, String id, int perBranch) {
        return SqlCheck.named(branchCheck(table, id, perBranch))
                .violations("SELECT " + id + ", bid FROM " + table + " WHERE bid IS DISTINCT FROM (" + id + " - 1) / "
                        + perBranch + " + 1")
                .rowKey(id).build();
    }
}

package dev.gauntlet.sql.check;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.ReadOnlySnapshot;
import dev.gauntlet.sql.SqlStates;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a workload's table of {@link SqlCheck}s in one {@link ReadOnlySnapshot}, so every check judges the
 * same data. Each check runs under a savepoint: a query that fails (a typo, a renamed column) is reported
 * as that check's FAIL with the database's message and does not abort the snapshot, so the others still
 * run. Only a lost connection ends the run, since every further check would fail the same way.
 */
public final class SqlChecks {

    private SqlChecks() {
    }

    /**
     * Runs {@code checks} in order, in a snapshot of their own on {@code c}, which is then given back with
     * its settings restored (see {@link ReadOnlySnapshot}).
     *
     * @return one result per check, in order: PASS, FAIL with the first violation or the error, or SKIP
     *         with why
     * @throws SQLException if the snapshot cannot be set up, or the connection is lost
     */
    public static List<Check> run(Connection c, List<SqlCheck> checks, CheckScope scope) throws SQLException {
        try (ReadOnlySnapshot snapshot = ReadOnlySnapshot.begin(c)) {
            return run(snapshot, checks, scope);
        }
    }

    /**
     * Runs {@code checks} in order in an open snapshot, for a caller that reads something else in the same
     * snapshot first (whether its schema is there at all). Expensive checks are skipped unless the scope
     * includes them; those valid only on loaded data are skipped once the scope finds a change since the
     * load.
     *
     * @return one result per check, in order
     * @throws SQLException if the connection is lost
     */
    public static List<Check> run(ReadOnlySnapshot snapshot, List<SqlCheck> checks, CheckScope scope)
            throws SQLException {
        Connection c = snapshot.connection();
        List<Check> results = new ArrayList<>();
        String changed = null; // asked once, when the first check that depends on it is reached
        for (SqlCheck check : checks) {
            if (check.expensive() && !scope.includeExpensive()) {
                results.add(Check.skip(check.name(), "expensive; " + scope.howToRunExpensive()));
                continue;
            }
            if (check.validOnlyOnLoadedData()) {
                changed = changed != null ? changed : scope.changeSinceLoad().find(c).orElse("");
                if (!changed.isEmpty()) {
                    results.add(Check.skip(check.name(), changed));
                    continue;
                }
            }
            results.add(evaluate(c, check));
        }
        return results;
    }

    /**
     * PASS when the query finds no violating rows; FAIL with the first one described, or with the error of
     * a statement that failed. The savepoint keeps a failed statement from aborting the whole snapshot.
     */
    private static Check evaluate(Connection c, SqlCheck check) throws SQLException {
        Savepoint savepoint = c.setSavepoint();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(check.query())) {
            Check result = rs.next() ? Check.fail(check.name(), describe(rs)) : Check.pass(check.name(), "");
            c.releaseSavepoint(savepoint);
            return result;
        } catch (SQLException e) {
            if (c.isClosed() || (e.getSQLState() != null && e.getSQLState().startsWith("08"))) {
                throw e; // the connection is gone: every further check would fail the same way
            }
            c.rollback(savepoint);
            return Check.fail(check.name(), "query failed: " + SqlStates.message(e));
        }
    }

    /** "2 violations, first: w_id=1 w_ytd=300010.00 sum(d_ytd)=300000.00". */
    private static String describe(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        long count = rs.getLong(SqlCheck.COUNT_COLUMN);
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            String label = meta.getColumnLabel(i);
            if (label.equals(SqlCheck.COUNT_COLUMN)) {
                continue;
            }
            if (row.length() > 0) {
                row.append(' ');
            }
            row.append(label).append('=').append(rs.getString(i));
        }
        return count == 1 ? "1 violation: " + row
                : String.format(Locale.ROOT, "%d violations, first: %s", count, row);
    }
}

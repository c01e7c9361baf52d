package dev.gauntlet.script.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.script.workload.HistoryLedger;
import dev.gauntlet.sql.LedgerCopy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run of the built-in scripts must leave, judged against the sums read just before it (the run may follow
 * others, and pgbench truncates the history first): every transaction changes an account's balance by the delta of
 * the history row it inserts (tpcb-like and simple-update), and a branch's by the same delta as a teller's
 * (tpcb-like), so the sums of {@code abalance} and {@code history.delta} rise together, and those of {@code bbalance}
 * and {@code tbalance}; and every transaction the driver heard commit is in {@code pgbench_history}, found by its
 * values (aid, tid, bid, delta), as many times as it was heard.
 */
public final class RunInvariants {

    public static final String ACCOUNTS = "accounts moved by the history's deltas";
    public static final String BRANCHES = "branches moved as tellers";
    public static final String HEARD = "every commit heard is in pgbench_history";

    /** The four sums at one moment, in one snapshot. */
    public record Sums(long accounts, long branches, long tellers, long history) {

        public static Sums read(Connection c) throws SQLException {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT (SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts),"
                            + " (SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches),"
                            + " (SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers),"
                            + " (SELECT coalesce(sum(delta), 0) FROM pgbench_history)")) {
                rs.next();
                return new Sums(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
            }
        }
    }

    private RunInvariants() {
    }

    /** The checks after a run: the sums against {@code before}, and the ledger's rows in the history. */
    public static List<Check> after(Connection c, Sums before, Path ledger, long heard) throws SQLException {
        Sums now = Sums.read(c);
        List<Check> checks = new ArrayList<>();
        long accounts = now.accounts() - before.accounts();
        long history = now.history() - before.history();
        String a = String.format(Locale.ROOT, "sum(abalance) rose by %,d, sum(history.delta) by %,d", accounts, history);
        checks.add(accounts == history ? Check.pass(ACCOUNTS, a) : Check.fail(ACCOUNTS, a));
        long branches = now.branches() - before.branches();
        long tellers = now.tellers() - before.tellers();
        String b = String.format(Locale.ROOT, "sum(bbalance) rose by %,d, sum(tbalance) by %,d", branches, tellers);
        checks.add(branches == tellers ? Check.pass(BRANCHES, b) : Check.fail(BRANCHES, b));
        if (ledger != null && Files.exists(ledger)) {
            checks.add(heard(c, ledger, heard));
        }
        return checks;
    }

    /** The ledger's rows in the history, each as many times as heard; the first missing ones named. */
    static Check heard(Connection c, Path ledger, long heard) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE gauntlet_heard (aid bigint, tid bigint, bid bigint, delta bigint)"
                    + " ON COMMIT DROP");
            LedgerCopy.into(c, "gauntlet_heard", out -> HistoryLedger.forEach(ledger, r -> {
                HistoryLedger.Row row = HistoryLedger.row(r);
                out.write(row.aid() + "\t" + row.tid() + "\t" + row.bid() + "\t" + row.delta() + "\n");
            }));
            List<String> missing = new ArrayList<>();
            long missingRows = 0;
            try (ResultSet rs = s.executeQuery("SELECT l.aid, l.tid, l.bid, l.delta, l.n - coalesce(h.n, 0)"
                    + " FROM (SELECT aid, tid, bid, delta, count(*) AS n FROM gauntlet_heard GROUP BY 1, 2, 3, 4) l"
                    + " LEFT JOIN (SELECT aid, tid, bid, delta, count(*) AS n FROM pgbench_history GROUP BY 1, 2, 3, 4) h"
                    + " USING (aid, tid, bid, delta) WHERE coalesce(h.n, 0) < l.n ORDER BY 1, 2, 3, 4")) {
                while (rs.next()) {
                    missingRows += rs.getLong(5);
                    if (missing.size() < 5) {
                        missing.add(String.format(Locale.ROOT, "(aid %d, tid %d, bid %d, delta %d)%s", rs.getLong(1),
                                rs.getLong(2), rs.getLong(3), rs.getLong(4),
                                rs.getLong(5) > 1 ? " x" + rs.getLong(5) : ""));
                    }
                }
            }
            c.commit();
            if (missingRows == 0) {
                return Check.pass(HEARD, String.format(Locale.ROOT, "all %,d found by their values", heard));
            }
            return Check.fail(HEARD, String.format(Locale.ROOT, "%,d of %,d heard commit are not in pgbench_history: %s%s",
                    missingRows, heard, String.join(", ", missing), missingRows > missing.size() ? ", ..." : ""));
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}

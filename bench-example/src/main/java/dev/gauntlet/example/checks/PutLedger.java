package dev.gauntlet.example.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.example.schema.KvSchema;
import dev.gauntlet.example.workload.KvWorkload;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Every committed put adds one to a row's version, so across a run the sum of the versions must rise by exactly
 * the puts the runner counted as committed: no lost update, no put counted that did not commit, none committed
 * that was not counted. Reads the sum before the first run and after each.
 */
public final class PutLedger {

    public static final String CHECK = "versions rose by the committed puts";

    private long before;

    private PutLedger(long before) {
        this.before = before;
    }

    public static PutLedger open(Connection c) throws SQLException {
        return new PutLedger(KvSchema.puts(c));
    }

    /** Compares the rise since the last call with {@code run}'s committed puts, then starts from the new sum. */
    public Check check(Connection c, RunResult run) throws SQLException {
        long after = KvSchema.puts(c);
        long committed = run.committedOverall(KvWorkload.PUT);
        long rose = after - before;
        before = after;
        String detail = "sum(version) rose by " + rose + "; the run committed " + committed + " puts (warm-up included)";
        return rose == committed ? Check.pass(CHECK, detail) : Check.fail(CHECK, detail);
    }
}

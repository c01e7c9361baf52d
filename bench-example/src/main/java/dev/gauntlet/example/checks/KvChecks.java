package dev.gauntlet.example.checks;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlCheck;
import dev.gauntlet.sql.check.SqlChecks;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** What must hold of the data after any number of runs: a table of checks, each a query for its offenders. */
public final class KvChecks {

    private KvChecks() {
    }

    /**
     * @param keys      how many keys were loaded
     * @param valueSize the length every value has
     */
    public static List<SqlCheck> table(long keys, int valueSize) {
        return List.of(
                new SqlCheck("every loaded key is present",
                        "SELECT g AS missing_key FROM generate_series(0, " + (keys - 1) + ") AS g "
                                + "WHERE NOT EXISTS (SELECT 1 FROM kv WHERE k = g)", "missing_key", false, false),
                new SqlCheck("no key outside the loaded range",
                        "SELECT k FROM kv WHERE k < 0 OR k >= " + keys, "k", false, false),
                new SqlCheck("every value is " + valueSize + " bytes",
                        "SELECT k, length(v) AS \"length(v)\" FROM kv WHERE length(v) <> " + valueSize, "k", false,
                        false),
                new SqlCheck("versions are not negative", "SELECT k, version FROM kv WHERE version < 0", "k", false,
                        false));
    }

    /** Runs the table in one read-only snapshot. */
    public static List<Check> run(Connection c, long keys, int valueSize) throws SQLException {
        return SqlChecks.run(c, table(keys, valueSize), CheckScope.all());
    }
}

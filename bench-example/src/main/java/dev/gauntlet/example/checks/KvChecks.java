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
                SqlCheck.named("every loaded key is present")
                        .violations("SELECT g AS missing_key FROM generate_series(0, " + (keys - 1) + ") AS g "
                                + "WHERE NOT EXISTS (SELECT 1 FROM kv WHERE k = g)")
                        .rowKey("missing_key").build(),
                SqlCheck.named("no key outside the loaded range")
                        .violations("SELECT k FROM kv WHERE k < 0 OR k >= " + keys).rowKey("k").build(),
                SqlCheck.named("every value is " + valueSize + " bytes")
                        .violations("SELECT k, length(v) AS \"length(v)\" FROM kv WHERE length(v) <> " + valueSize)
                        .rowKey("k").build(),
                SqlCheck.named("versions are not negative")
                        .violations("SELECT k, version FROM kv WHERE version < 0").rowKey("k").build());
    }

    /** Runs the table in one read-only snapshot. */
    public static List<Check> run(Connection c, long keys, int valueSize) throws SQLException {
        return SqlChecks.run(c, table(keys, valueSize), CheckScope.all());
    }
}

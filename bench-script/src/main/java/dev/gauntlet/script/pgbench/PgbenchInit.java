package dev.gauntlet.script.pgbench;

import dev.gauntlet.script.schema.PartitionMethod;
import dev.gauntlet.script.schema.PgbenchInitSteps;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.script.workload.PgbenchAbort;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** {@code pgbench -i}: the initialization steps on the target, pgbench's messages on standard error. */
final class PgbenchInit {

    private PgbenchInit() {
    }

    static void run(PgbenchSettings s, LibpqTarget target, PrintStream err) {
        PartitionMethod method = s.partitions == 0 ? PartitionMethod.NONE : PartitionMethod.parse(s.partitionMethod);
        PgbenchSchema.Loaded tables = new PgbenchSchema.Loaded(s.scale, s.fillfactor, s.partitions, method,
                s.foreignKeys, s.unloggedTables);
        try (Connection c = target.connect()) {
            c.setAutoCommit(true);
            new PgbenchInitSteps(c, tables, new PgbenchInitSteps.Tablespaces(s.tablespace, s.indexTablespace), s.quiet,
                    err).run(s.initSteps);
        } catch (SQLException e) {
            // pgbench's executeStatement: the query failed, its error and the statement
            throw new PgbenchExit(1, List.of(PgbenchLog.error("query failed: " + PgbenchAbort.libpq(e))));
        }
    }
}

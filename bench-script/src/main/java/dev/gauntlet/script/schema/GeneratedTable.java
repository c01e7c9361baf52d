package dev.gauntlet.script.schema;

import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/**
 * The three tables pgbench's {@code g} step fills (client-side generation), each row exactly as pgbench 15 makes it:
 * balances 0; the filler NULL in branches and tellers (pgbench leaves it out of its INSERTs) and an empty string,
 * blank-padded by {@code char(84)}, in accounts; teller {@code k} (from 0) in branch {@code k / 10 + 1}, account
 * {@code k} in branch {@code k / 100000 + 1}. Filled in pgbench's order, branches first, in case foreign keys exist.
 */
enum GeneratedTable {

    BRANCHES("pgbench_branches", PgbenchSchema.NBRANCHES) {
        @Override
        void row(CopyBuffer row, long k) {
            row.number(k + 1).tab().number(0).tab().nul();
        }
    },
    TELLERS("pgbench_tellers", PgbenchSchema.NTELLERS) {
        @Override
        void row(CopyBuffer row, long k) {
            row.number(k + 1).tab().number(k / PgbenchSchema.NTELLERS + 1).tab().number(0).tab().nul();
        }
    },
    ACCOUNTS("pgbench_accounts", PgbenchSchema.NACCOUNTS) {
        @Override
        void row(CopyBuffer row, long k) {
            row.number(k + 1).tab().number(k / PgbenchSchema.NACCOUNTS + 1).tab().number(0).tab();
        }
    };

    private final String table;
    private final int rowsPerScale;

    GeneratedTable(String table, int rowsPerScale) {
        this.table = table;
        this.rowsPerScale = rowsPerScale;
    }

    /** Writes row {@code k} (0-based) without its end. */
    abstract void row(CopyBuffer row, long k);

    /**
     * COPYs this table's {@code rowsPerScale * scale} rows in on {@code c}, in the caller's transaction.
     *
     * @param freeze COPY ... FREEZE: the rows go in frozen and their pages all-visible, as a VACUUM would leave them
     *               (the table must have been created in this transaction; a partitioned table cannot be)
     * @return the rows the server took
     */
    long copy(Connection c, int scale, boolean freeze) throws SQLException {
        return copy(c, scale, freeze, done -> { });
    }

    /** The same, telling {@code progress} the rows written after each 100 (pgbench's progress counts them so). */
    long copy(Connection c, int scale, boolean freeze, java.util.function.LongConsumer progress) throws SQLException {
        long rows = (long) rowsPerScale * scale;
        CopyBuffer buffer = new CopyBuffer(c.unwrap(PGConnection.class).getCopyAPI()
                .copyIn("copy " + table + " from stdin" + (freeze ? " with (freeze on)" : "")));
        try {
            for (long k = 0; k < rows; k++) {
                row(buffer, k);
                buffer.endRow();
                if ((k + 1) % 100 == 0) {
                    progress.accept(k + 1);
                }
            }
            return buffer.finish();
        } catch (SQLException | RuntimeException e) {
            buffer.abort(e);
            throw e;
        }
    }

    String table() {
        return table;
    }
}

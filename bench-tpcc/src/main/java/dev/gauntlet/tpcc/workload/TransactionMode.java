package dev.gauntlet.tpcc.workload;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * How a terminal's transaction reaches the database. {@code statements}: the transaction's own statements from the
 * driver, each transaction one statement in auto-commit, one round trip (Delivery one per pass over the districts a
 * concurrent Delivery left it, usually one). {@code procedures}: one call of its PL/pgSQL function (see
 * {@code procedures.sql}) with the same inputs, as HammerDB runs TPC-C on PostgreSQL, in auto-commit: the server
 * commits as it answers, so a transaction is one round trip (a session lost during a writing call is an ambiguous
 * commit).
 */
public enum TransactionMode {

    STATEMENTS,
    PROCEDURES;

    /** {@code statements} or {@code procedures}, as options and results spell it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TransactionMode parse(String name) {
        for (TransactionMode m : values()) {
            if (m.label().equalsIgnoreCase(name.strip())) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode '" + name + "' is neither statements nor procedures");
    }

    /** The operation a terminal runs for {@code transaction} in this mode. */
    Operation<Connection> operation(Procedural transaction) {
        return this == STATEMENTS ? transaction : new ProcedureCall(transaction);
    }

    /** A transaction that also runs as one call of its function. */
    interface Procedural extends Operation<Connection> {

        /** The transaction as one function call, in auto-commit or on a connection the caller commits. */
        void call(Connection c) throws SQLException;

        /** What this transaction did, counted once it commits. */
        void committed(dev.gauntlet.core.metrics.Counters counters);

        /**
         * Work once the attempt's commit is known or in doubt (e.g. keeping a New-Order's key), said to the attempt
         * before the transaction runs (a call's answer lost on the way leaves its commit in doubt with nothing said
         * after it); none by default.
         */
        default void recorded(Attempt attempt) {
        }
    }

    /** The procedures mode's operation: named like the transaction, so results and audits read the same. */
    private record ProcedureCall(Procedural transaction) implements Operation<Connection> {

        @Override
        public String name() {
            return transaction.name();
        }

        @Override
        public Commit commit() {
            // One call: committed by the server as it answers, unless the transaction only reads.
            return transaction.commit() == Commit.NONE ? Commit.NONE : Commit.IMPLICIT;
        }

        @Override
        public void execute(Connection c, Attempt attempt) throws SQLException {
            transaction.recorded(attempt);
            transaction.call(c);
            transaction.committed(attempt::count);
        }
    }
}

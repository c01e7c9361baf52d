package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.PgbenchRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.postgresql.PGStatement;

/**
 * What a client keeps from one transaction to the next, as a pgbench client does: its variables, its random state
 * (that of the random functions, and that choosing its scripts) and, with {@code -M prepared}, the statements it
 * prepared on its current connection.
 */
final class ClientState {

    final int clientId;
    final Variables variables = new Variables();
    /** The random functions' state; a retried transaction starts again from the state it started with. */
    PgbenchRandom random;
    final PgbenchRandom chooser;

    private Connection preparedOn;
    private final Map<SqlInstruction, PreparedStatement> prepared = new IdentityHashMap<>();

    ClientState(int clientId, PgbenchRandom random, PgbenchRandom chooser) {
        this.clientId = clientId;
        this.random = random;
        this.chooser = chooser;
    }

    /**
     * The statement of {@code sql} prepared on {@code c} (once per connection: a new one after a reconnect or from
     * another pooled connection), a server-side prepared statement from its first execution.
     */
    PreparedStatement prepared(Connection c, SqlInstruction sql) throws SQLException {
        if (c != preparedOn) {
            for (PreparedStatement p : prepared.values()) {
                try {
                    p.close();
                } catch (SQLException ignored) {
                    // the statement of a connection that is gone
                }
            }
            prepared.clear();
            preparedOn = c;
        }
        PreparedStatement p = prepared.get(sql);
        if (p == null) {
            p = c.prepareStatement(sql.jdbcText());
            p.unwrap(PGStatement.class).setPrepareThreshold(1);
            prepared.put(sql, p);
        }
        return p;
    }
}

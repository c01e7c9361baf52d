package dev.gauntlet.sql;

import dev.gauntlet.core.run.AmbiguousCommitException;
import dev.gauntlet.core.run.Failure.Kind;
import dev.gauntlet.core.run.Failure;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The error policy's table, in one place: which SQLSTATEs (PostgreSQL and CockroachDB) mean retry,
 * reconnect, ambiguous commit, timeout, or stop. What each kind does to the run is the runner's business.
 */
public final class SqlStates {

    public static final String SERIALIZATION_FAILURE = "40001";
    public static final String DEADLOCK = "40P01";
    public static final String STATEMENT_COMPLETION_UNKNOWN = "40003";
    public static final String ADMIN_SHUTDOWN = "57P01";
    public static final String CRASH_SHUTDOWN = "57P02";
    public static final String CANNOT_CONNECT_NOW = "57P03";
    /** The server ended a session idle longer than idle_session_timeout: the session is lost. */
    public static final String IDLE_SESSION_TIMEOUT = "57P05";
    /** The server ended a session idle in a transaction longer than its timeout: the session is lost. */
    public static final String IDLE_IN_TRANSACTION_TIMEOUT = "25P03";
    public static final String QUERY_CANCELED = "57014";
    public static final String LOCK_NOT_AVAILABLE = "55P03";
    public static final String TOO_MANY_CONNECTIONS = "53300";
    public static final String INVALID_PASSWORD = "28P01";
    public static final String INVALID_AUTHORIZATION = "28000";
    public static final String UNDEFINED_DATABASE = "3D000";
    /**
     * A write on a server that takes none now: a primary demoted (Patroni's leader cut off from its store), or a
     * standby a router sent the session to before its health check saw the change. The session is on the wrong
     * server: dropped and opened again, a router that follows the leader sends it to the new one. Nothing committed.
     */
    public static final String READ_ONLY_SQL_TRANSACTION = "25006";

    private SqlStates() {
    }

    public static Failure classify(Throwable error) {
        if (error instanceof AmbiguousCommitException) {
            String code = error.getCause() instanceof SQLException s && s.getSQLState() != null
                    ? s.getSQLState() : "";
            return new Failure(Kind.AMBIGUOUS_COMMIT, code, error.getMessage());
        }
        SQLException sql = find(error, SQLException.class);
        if (sql == null) {
            if (find(error, IOException.class) != null) {
                return new Failure(Kind.CONNECTION, "", message(error));
            }
            return Failure.fatal(error);
        }
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        Kind kind = kindOf(state);
        if (kind == null) {
            if (sql instanceof SQLTransientConnectionException) {
                // HikariCP's "Connection is not available": a saturated pool times out; a dead server is a connection loss.
                kind = sql.getCause() == null && sql.getNextException() == null ? Kind.TIMEOUT : Kind.CONNECTION;
            } else if (find(error, IOException.class) != null) {
                kind = Kind.CONNECTION;
            } else {
                kind = Kind.FATAL;
            }
        }
        return new Failure(kind, state, message(sql));
    }

    /**
     * Whether {@code error}, met while a commit was under way, leaves the commit unknown: the session was lost (a
     * connection failure) without the server saying it refused the work. A server that answers "read-only" (25006),
     * "cannot connect now" (57P03) or "too many connections" (53300) did not commit it.
     */
    public static boolean leavesCommitUnknown(Throwable error) {
        Failure f = classify(error);
        return f.kind() == Kind.CONNECTION && !f.code().equals(READ_ONLY_SQL_TRANSACTION)
                && !f.code().equals(CANNOT_CONNECT_NOW) && !f.code().equals(TOO_MANY_CONNECTIONS);
    }

    /** The kind for a SQLSTATE, or null when the state alone does not say. */
    static Kind kindOf(String state) {
        if (state.equals(SERIALIZATION_FAILURE) || state.equals(DEADLOCK)) {
            return Kind.RETRY; // CockroachDB's restart errors (RETRY_WRITE_TOO_OLD, ...) are 40001 too
        }
        if (state.equals(STATEMENT_COMPLETION_UNKNOWN)) {
            return Kind.AMBIGUOUS_COMMIT;
        }
        if (state.startsWith("08") || state.equals(ADMIN_SHUTDOWN) || state.equals(CRASH_SHUTDOWN)
                || state.equals(CANNOT_CONNECT_NOW) || state.equals(TOO_MANY_CONNECTIONS)
                || state.equals(IDLE_SESSION_TIMEOUT) || state.equals(IDLE_IN_TRANSACTION_TIMEOUT)
                || state.equals(READ_ONLY_SQL_TRANSACTION)) {
            return Kind.CONNECTION;
        }
        if (state.equals(QUERY_CANCELED) || state.equals(LOCK_NOT_AVAILABLE)) {
            return Kind.TIMEOUT;
        }
        return null;
    }

    public static String message(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}

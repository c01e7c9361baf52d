package dev.gauntlet.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.gauntlet.core.run.AmbiguousCommitException;
import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.Target;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * A JDBC database as the runner's target. Direct: every client opens its own connection. Pooled: a HikariCP
 * pool shared by all clients, one connection borrowed per transaction (PgBouncer transaction pooling,
 * emulated). Through PgBouncer: every client opens its own connection to a {@code PgBouncer} this target started
 * and stops on {@link #close()}. Transactions are explicit: auto-commit off, commit after the operation, rollback
 * on failure; an operation that commits by itself ({@link Operation.Commit#IMPLICIT}, e.g. a procedure call) runs
 * alone in auto-commit.
 */
public final class JdbcTarget implements Target<Connection> {

    /** How long a client may wait for a pooled connection before the attempt counts as a timeout. */
    public static final Duration POOL_WAIT_LIMIT = Duration.ofSeconds(30);

    /** Leave the server's default isolation level alone. */
    public static final int DEFAULT_ISOLATION = -1;

    private final ConnectionSettings settings;
    private final HikariDataSource pool;
    private final int isolation;
    /** Closed after the connections: the PgBouncer in front of the database, or null. */
    private final AutoCloseable owned;
    /**
     * Direct connections clients gave back whole, for the next run's clients ({@link #keepSessions()}); null: each is
     * closed when given back.
     */
    private volatile java.util.concurrent.ConcurrentLinkedDeque<Connection> kept;
    /** A new connection for each transaction, closed at its end ({@link PoolMode#CONNECT}). */
    private final boolean connectEach;
    /** Aborts a direct session whose transaction outlasts the session limit; null for a pool (Hikari's sockets time out). */
    private final SessionWatchdog watchdog;

    private JdbcTarget(ConnectionSettings settings, HikariDataSource pool, int isolation, AutoCloseable owned) {
        this(settings, pool, isolation, owned, false);
    }

    private JdbcTarget(ConnectionSettings settings, HikariDataSource pool, int isolation, AutoCloseable owned,
                       boolean connectEach) {
        this(settings, pool, isolation, owned, connectEach, ConnectionSettings.SESSION_SOCKET_TIMEOUT);
    }

    private JdbcTarget(ConnectionSettings settings, HikariDataSource pool, int isolation, AutoCloseable owned,
                       boolean connectEach, Duration stuckAfter) {
        this.settings = settings;
        this.pool = pool;
        this.isolation = isolation;
        this.owned = owned;
        this.connectEach = connectEach;
        this.watchdog = pool == null ? new SessionWatchdog(stuckAfter) : null;
    }

    /** A direct target whose sessions are aborted when a transaction outlasts {@code stuckAfter} (tests). */
    static JdbcTarget direct(ConnectionSettings settings, Duration stuckAfter) {
        return new JdbcTarget(settings, null, DEFAULT_ISOLATION, null, false, stuckAfter);
    }

    /** Sessions the watchdog aborted, their transaction stuck past the session limit. */
    long sessionsAborted() {
        return watchdog == null ? 0 : watchdog.aborted();
    }

    public static JdbcTarget direct(ConnectionSettings settings) {
        return direct(settings, DEFAULT_ISOLATION);
    }

    /** @param isolation a {@code Connection.TRANSACTION_*} level, or {@link #DEFAULT_ISOLATION} */
    public static JdbcTarget direct(ConnectionSettings settings, int isolation) {
        return new JdbcTarget(settings, null, isolation, null);
    }

    /**
     * Clients share a HikariCP pool of {@code poolSize} connections. Server-side prepared statements are off
     * ({@code prepareThreshold=0}), as under a transaction pooler, where the next transaction may run on another
     * server connection.
     */
    public static JdbcTarget pooled(ConnectionSettings settings, int poolSize) {
        return pooled(settings, poolSize, DEFAULT_ISOLATION);
    }

    /** @param isolation a {@code Connection.TRANSACTION_*} level, or {@link #DEFAULT_ISOLATION} */
    public static JdbcTarget pooled(ConnectionSettings settings, int poolSize, int isolation) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("gauntlet");
        config.setJdbcUrl(settings.url());
        Properties properties = settings.properties(ConnectionSettings.SESSION_SOCKET_TIMEOUT);
        properties.setProperty("prepareThreshold", "0");
        config.setDataSourceProperties(properties);
        if (settings.user() != null) {
            config.setUsername(settings.user());
        }
        if (settings.password() != null) {
            config.setPassword(settings.password());
        }
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setAutoCommit(false);
        config.setConnectionTimeout(POOL_WAIT_LIMIT.toMillis());
        // Start even if the database is briefly away; the run's error policy deals with it.
        config.setInitializationFailTimeout(-1);
        if (isolation != DEFAULT_ISOLATION) {
            config.setTransactionIsolation(switch (isolation) {
                case Connection.TRANSACTION_READ_UNCOMMITTED -> "TRANSACTION_READ_UNCOMMITTED";
                case Connection.TRANSACTION_READ_COMMITTED -> "TRANSACTION_READ_COMMITTED";
                case Connection.TRANSACTION_REPEATABLE_READ -> "TRANSACTION_REPEATABLE_READ";
                case Connection.TRANSACTION_SERIALIZABLE -> "TRANSACTION_SERIALIZABLE";
                default -> throw new IllegalArgumentException("unknown isolation level " + isolation);
            });
        }
        return new JdbcTarget(settings, new HikariDataSource(config), isolation, null);
    }

    public static JdbcTarget of(ConnectionSettings settings, PoolMode mode, int poolSize) {
        return of(settings, mode, poolSize, DEFAULT_ISOLATION);
    }

    /**
     * A direct or pooled target; {@link PoolMode#PGBOUNCER} starts a process and needs the number of clients, so
     * it has its own factory, {@code PgBouncer.target}.
     */
    public static JdbcTarget of(ConnectionSettings settings, PoolMode mode, int poolSize, int isolation) {
        return switch (mode) {
            case DIRECT -> direct(settings, isolation);
            case POOLED -> pooled(settings, poolSize, isolation);
            case CONNECT -> new JdbcTarget(settings, null, isolation, null, true);
            case PGBOUNCER -> throw new IllegalArgumentException(
                    "a PgBouncer target needs the number of clients: use PgBouncer.target");
        };
    }

    /**
     * A direct target on {@code settings} that closes {@code owned} after its connections: what a pooler in front of
     * the database ({@code PgBouncer.target}) returns, so closing the target stops the pooler.
     */
    public static JdbcTarget owning(ConnectionSettings settings, AutoCloseable owned) {
        return new JdbcTarget(settings, null, DEFAULT_ISOLATION, owned);
    }

    /** What this target owns and will close, if it is a {@code type}: e.g. the PgBouncer it goes through. */
    public <T> Optional<T> owned(Class<T> type) {
        return type.isInstance(owned) ? Optional.of(type.cast(owned)) : Optional.empty();
    }

    /**
     * From now on a direct connection given back whole is kept, and the next {@link #open()} takes it: what a run after
     * an apart priming starts with, as a run primed inside itself goes on with the priming's connections (opened, and
     * their statements prepared on the server). Closed by {@link #close()}. A pooled target keeps its pool anyway.
     */
    public void keepSessions() {
        if (pool == null && kept == null) {
            kept = new java.util.concurrent.ConcurrentLinkedDeque<>();
        }
    }

    /** The sessions kept now ({@link #keepSessions()}), in the order the next run's clients take them. */
    public java.util.List<Connection> keptSessions() {
        var keeping = kept;
        return keeping == null ? java.util.List.of() : java.util.List.copyOf(keeping);
    }

    @Override
    public Connection open() throws SQLException {
        if (pool != null) {
            return pool.getConnection();
        }
        var keeping = connectEach ? null : kept;
        Connection reused = keeping == null ? null : keeping.pollFirst();
        if (reused != null) {
            return reused;
        }
        Connection c = settings.connectWatched();
        watchdog.watch(c);
        try {
            c.setAutoCommit(false);
            if (isolation != DEFAULT_ISOLATION) {
                c.setTransactionIsolation(isolation);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void release(Connection session, boolean broken) {
        try {
            var keeping = connectEach ? null : kept;
            if (pool != null && broken) {
                pool.evictConnection(session);
            } else if (keeping != null && !broken && !session.isClosed()) { // kept only when direct
                keeping.addLast(session);
            } else {
                if (watchdog != null) {
                    watchdog.forget(session);
                }
                session.close();
            }
        } catch (SQLException | RuntimeException ignored) {
            // A connection we are discarding anyway.
        }
    }

    @Override
    public boolean sessionPerTransaction() {
        return pool != null || connectEach;
    }

    @Override
    public void transact(Connection session, Operation<Connection> operation, Attempt attempt) throws Exception {
        if (watchdog == null) {
            transactInSession(session, operation, attempt);
            return;
        }
        watchdog.busy(session);
        try {
            transactInSession(session, operation, attempt);
        } finally {
            watchdog.idle(session);
        }
    }

    private void transactInSession(Connection session, Operation<Connection> operation, Attempt attempt)
            throws Exception {
        if (operation.commit() != Operation.Commit.EXPLICIT) {
            transactAlone(session, operation, attempt);
            return;
        }
        try {
            operation.execute(session, attempt);
        } catch (Exception e) {
            rollbackQuietly(session);
            throw e;
        }
        try {
            session.commit();
        } catch (SQLException e) {
            if (SqlStates.leavesCommitUnknown(e)) {
                throw new AmbiguousCommitException(e);
            }
            rollbackQuietly(session);
            throw e;
        }
    }

    /**
     * The operation as one statement in auto-commit: one round trip, no BEGIN or COMMIT of ours. A session lost
     * while a writing statement ran leaves its commit unknown. Switching auto-commit on and off again costs no round
     * trip while no transaction is open (pgjdbc only sends BEGIN with the next statement).
     */
    private static void transactAlone(Connection session, Operation<Connection> operation, Attempt attempt)
            throws Exception {
        session.setAutoCommit(true);
        try {
            operation.execute(session, attempt);
        } catch (SQLException e) {
            if (operation.commit() == Operation.Commit.IMPLICIT && SqlStates.leavesCommitUnknown(e)) {
                throw new AmbiguousCommitException(e);
            }
            throw e;
        } finally {
            if (!session.isClosed()) {
                session.setAutoCommit(false);
            }
        }
    }

    private static void rollbackQuietly(Connection session) {
        try {
            if (!session.isClosed()) {
                session.rollback();
            }
        } catch (SQLException ignored) {
            // The connection is broken; the error policy will drop it.
        }
    }

    @Override
    public Failure classify(Throwable error) {
        return SqlStates.classify(error);
    }

    @Override
    public void close() {
        if (watchdog != null) {
            watchdog.close();
        }
        var keeping = kept;
        kept = null;
        if (keeping != null) {
            for (Connection c; (c = keeping.pollFirst()) != null; ) {
                try {
                    c.close();
                } catch (SQLException | RuntimeException ignored) {
                    // closing anyway
                }
            }
        }
        try {
            if (pool != null) {
                pool.close();
            }
        } finally {
            if (owned != null) {
                try {
                    owned.close();
                } catch (Exception e) {
                    throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
                }
            }
        }
    }
}

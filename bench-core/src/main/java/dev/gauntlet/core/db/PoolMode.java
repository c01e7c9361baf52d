package dev.gauntlet.core.db;

/** How clients get connections. */
public enum PoolMode {
    /** Each client owns one connection for its whole life (what a client talking straight to PostgreSQL does). */
    DIRECT,
    /**
     * Clients share a HikariCP pool and borrow a connection per transaction, which emulates PgBouncer in
     * transaction mode; waiting for a connection is part of the latency and is also reported on its own.
     */
    POOLED
}

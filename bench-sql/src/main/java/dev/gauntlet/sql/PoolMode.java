package dev.gauntlet.sql;

/** How clients get connections. */
public enum PoolMode {
    /** Each client owns one connection for its whole life (what a client talking straight to PostgreSQL does). */
    DIRECT,
    /**
     * Clients share a HikariCP pool and borrow a connection per transaction, which emulates PgBouncer in
     * transaction mode; waiting for a connection is part of the latency and is also reported on its own.
     * Server-side prepared statements are off, as a transaction pooler needs.
     */
    POOLED,
    /**
     * A PgBouncer started by Gauntlet in transaction mode in front of the database, with {@code --pool-size}
     * server connections; each client owns a connection to PgBouncer. Server-side prepared statements are off.
     * Waiting for a server connection happens inside PgBouncer, so it is part of the latency only.
     */
    PGBOUNCER,
    /**
     * Each transaction opens a connection of its own and closes it at its end, as pgbench's {@code -C}: the time to
     * connect is reported on its own (as pool wait) and is not in the service time.
     */
    CONNECT;

    /** {@code direct}, {@code pooled}, {@code pgbouncer} or {@code connect}, as the options spell them (any case). */
    public static PoolMode parse(String name) {
        for (PoolMode m : values()) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("pool mode '" + name + "' is none of direct, pooled, pgbouncer, connect");
    }
}

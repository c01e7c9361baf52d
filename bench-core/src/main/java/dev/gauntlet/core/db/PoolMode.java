package dev.gauntlet.core.db;

/** How clients get connections. */
public enum PoolMode {
    /** Each client owns one connection for its whole life (what a client talking straight to PostgreSQL does). */
    DIRECT,
    /**
     * Clients share a HikariCP pool and borrow a connection per transaction, which emulates PgBouncer in
     * transaction mode; waiting for a connection is part of the latency and is also reported on its own.
     */
    POOLED;

    /** {@code direct} or {@code pooled}, as the options spell them. */
    public static PoolMode parse(String name) {
        for (PoolMode m : values()) {
            if (m.name().equalsIgnoreCase(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("pool mode '" + name + "' is neither direct nor pooled");
    }
}

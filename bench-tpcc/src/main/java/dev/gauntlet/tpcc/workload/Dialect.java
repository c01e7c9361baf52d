package dev.gauntlet.tpcc.workload;

import dev.gauntlet.sql.Database;

/**
 * The SQL dialects the workload speaks. Transactions use statements both accept; only the schema, the bulk
 * load path and the default isolation differ.
 */
public enum Dialect {
    POSTGRES("PostgreSQL", Isolation.READ_COMMITTED),
    COCKROACH("CockroachDB", Isolation.SERIALIZABLE);

    private final String product;
    private final Isolation defaultIsolation;

    Dialect(String product, Isolation defaultIsolation) {
        this.product = product;
        this.defaultIsolation = defaultIsolation;
    }

    public static Dialect of(Database db) {
        return db.isCockroach() ? COCKROACH : POSTGRES;
    }

    public String product() {
        return product;
    }

    /**
     * PostgreSQL: READ COMMITTED, because every write here is an atomic update of the row it reads, so the
     * consistency conditions hold without serialization failures on a stock configuration. CockroachDB:
     * SERIALIZABLE, its default and the only level available without a cluster setting.
     */
    public Isolation defaultIsolation() {
        return defaultIsolation;
    }
}

/**
 * Databases: connection settings and the JDBC {@link dev.gauntlet.core.db.JdbcTarget} (direct, pooled, or through
 * a {@link dev.gauntlet.core.db.PgBouncer} it starts), the SQLSTATE table of the error policy
 * ({@link dev.gauntlet.core.db.SqlStates}), the embedded PostgreSQL, server settings read back for experiments
 * ({@link dev.gauntlet.core.db.ServerSettings}), and SQL invariants as a table of
 * {@link dev.gauntlet.core.db.SqlCheck}s run in one snapshot by {@link dev.gauntlet.core.db.SqlChecks}.
 *
 * <p><b>SPI:</b> {@code SqlCheck}, {@code SqlChecks}, {@code CheckScope}, {@code ServerSettings},
 * {@code JdbcTarget}, {@code Database}. <b>Internal:</b> the embedded server's launcher and its helpers.
 */
package dev.gauntlet.core.db;

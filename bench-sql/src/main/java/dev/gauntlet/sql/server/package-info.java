/**
 * Servers Gauntlet starts and stops itself: the embedded PostgreSQL ({@link dev.gauntlet.sql.server.LocalPostgres}
 * and its small parts: binaries, data directory, tools, log, lock), a primary with a standby
 * ({@link dev.gauntlet.sql.server.ReplicatedPostgres}), base backups, a loop-mounted file system to freeze, and
 * {@link dev.gauntlet.sql.server.PgBouncer} in transaction mode.
 *
 * <p><b>SPI:</b> {@code LocalPostgres}, {@code ReplicatedPostgres}, {@code PgBouncer}. <b>Internal:</b> the rest.
 */
package dev.gauntlet.sql.server;

/**
 * The SQL target: connection settings, the JDBC {@link dev.gauntlet.sql.JdbcTarget} (direct, pooled, or owning a
 * pooler in front of the database), the SQLSTATE table of the error policy ({@link dev.gauntlet.sql.SqlStates}),
 * server settings applied and read back for experiments ({@link dev.gauntlet.sql.ServerSettings}, the engine's
 * {@code ServerState}), the rendezvous of a run's driver processes, the sockets that count round trips, and the
 * history's store of runs in a PostgreSQL table ({@link dev.gauntlet.sql.PostgresResultStore}, {@code --store}).
 *
 * <p>Beside it: {@code sql.server} manages servers (embedded and replicated PostgreSQL, PgBouncer),
 * {@code sql.observe} reads them (CPU, round trips, wait events, gauges), {@code sql.check} holds SQL invariants,
 * {@code sql.adversity} the disruptions of a run through faults, {@code sql.cli} the SQL side of the command line.
 * Dependencies run one way: cli -> adversity -> server, observe -> this package -> the engine ({@code bench-core}).
 *
 * <p><b>SPI:</b> {@code JdbcTarget}, {@code Database}, {@code SqlStates}, {@code ServerSettings}.
 */
package dev.gauntlet.sql;

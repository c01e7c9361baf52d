/**
 * The SQL side of the command line: connection options ({@link dev.gauntlet.sql.cli.ConnectionOptions}: --url,
 * --pool, embedded PostgreSQL), one SQL run or experiment ({@link dev.gauntlet.sql.cli.SqlBenchmark}), a run through
 * faults ({@link dev.gauntlet.sql.cli.AdversityRun}) and the shared {@code drop} command.
 */
package dev.gauntlet.sql.cli;

/**
 * SQL invariants as a table of {@link dev.gauntlet.sql.check.SqlCheck}s, each a query that returns the rows
 * breaking a rule, run in one read-only snapshot by {@link dev.gauntlet.sql.check.SqlChecks} and scoped to this
 * process's part of a run by {@link dev.gauntlet.sql.check.CheckScope}.
 *
 * <p><b>SPI:</b> {@code SqlCheck}, {@code SqlChecks}, {@code CheckScope}.
 */
package dev.gauntlet.sql.check;

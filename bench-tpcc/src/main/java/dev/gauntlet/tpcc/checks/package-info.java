/**
 * The consistency conditions of clause 3.3.2 as a table of SQL checks named by clause number, run in one
 * read-only snapshot after a run or by {@code bench-tpcc check} ({@link dev.gauntlet.tpcc.checks.ConsistencyChecks}):
 * the invariants that the data a load wrote and every committed transaction must keep.
 */
package dev.gauntlet.tpcc.checks;

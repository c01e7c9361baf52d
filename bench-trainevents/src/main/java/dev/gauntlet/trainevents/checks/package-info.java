/**
 * The lifecycle's invariants, from the tables alone and against the run's ledger copied in beside them
 * ({@link dev.gauntlet.trainevents.checks.EventChecks}).
 */
package dev.gauntlet.trainevents.checks;

/**
 * The invariants of the pgbench tables after the built-in scripts ran: balances that agree with the history, and every
 * transaction the driver heard commit found in the history by its values.
 */
package dev.gauntlet.script.checks;

/**
 * The TPC-C transactions as the runner's operations: New-Order, Payment, Order-Status, Delivery and Stock-Level
 * with their input drawn as clause 2 says, the 23-card deck of the mix with its keying and think times
 * ({@link dev.gauntlet.tpcc.workload.TransactionType}, {@link dev.gauntlet.tpcc.workload.Deck}), terminals spread
 * over the active warehouses ({@link dev.gauntlet.tpcc.workload.TpccWorkload}), the specification's random
 * functions and NURand constants ({@link dev.gauntlet.tpcc.workload.TpccRandom}), its fixed cardinalities
 * ({@link dev.gauntlet.tpcc.workload.Scale}), and the SQL dialects and isolation levels a run speaks. The load
 * draws the initial population with the same random functions and cardinalities.
 */
package dev.gauntlet.tpcc.workload;

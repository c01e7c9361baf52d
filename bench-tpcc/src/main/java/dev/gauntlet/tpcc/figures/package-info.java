/**
 * The headline numbers of a TPC-C run and the audit of what it did: tpmC counted by the client and on the server
 * ({@link dev.gauntlet.tpcc.figures.ServerNewOrders}), efficiency against the most the deck allows and the
 * 90th-percentile response-time limits ({@link dev.gauntlet.tpcc.figures.TpccFigures}), and the transaction-mix
 * audit of clauses 5.2.3 and 9.2 ({@link dev.gauntlet.tpcc.figures.MixAudit}), which judges every share the
 * workload draws within the spec's band or a 99.999% binomial interval around it.
 */
package dev.gauntlet.tpcc.figures;

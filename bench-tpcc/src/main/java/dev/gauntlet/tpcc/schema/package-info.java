/**
 * The TPC-C database as loaded: the nine tables with their keys and indexes for PostgreSQL and CockroachDB
 * ({@link dev.gauntlet.tpcc.schema.Schema}), the initial population of clause 4.3.3.1 generated field by field
 * and streamed into the tables by COPY or multi-row INSERT ({@link dev.gauntlet.tpcc.schema.RowSink}), the
 * parallel load of warehouses that {@code init --resume} finishes when it was interrupted
 * ({@link dev.gauntlet.tpcc.schema.Loader}), and the load record: {@code tpcc_load}, which says which warehouses
 * finished and the load's NURand constant for last names, and {@code tpcc_load_plan}, what the load set out to do and
 * whether it got to the end ({@link dev.gauntlet.tpcc.schema.LoadRecord}, {@link dev.gauntlet.tpcc.schema.LoadPlan}).
 */
package dev.gauntlet.tpcc.schema;

/**
 * The event lifecycle as the runner's operations: add, process and archive
 * ({@link dev.gauntlet.trainevents.workload.Lifecycle}) run by every client
 * ({@link dev.gauntlet.trainevents.workload.TrainEventsWorkload}), the railway events they add
 * ({@link dev.gauntlet.trainevents.workload.RailEvents}, {@link dev.gauntlet.trainevents.workload.EventCatalogue},
 * {@link dev.gauntlet.trainevents.workload.EventBatch}), how
 * each variant stores an event and the SQL it asks for ({@link dev.gauntlet.trainevents.workload.Variant}, with the
 * table names), and the ledger of what the driver heard commit
 * ({@link dev.gauntlet.trainevents.workload.EventLedger}). The lowest package: the others draw on it.
 */
package dev.gauntlet.trainevents.workload;

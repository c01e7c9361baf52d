/**
 * The train-event tables as a run starts from them: a variant's tables created afresh and seeded with PENDING events
 * drawn as the workload draws them ({@link dev.gauntlet.trainevents.schema.EventTables}).
 */
package dev.gauntlet.trainevents.schema;

/**
 * What a run's result says beyond the operations' own figures: events, WAL, sizes, waits and CPU per cycle
 * ({@link dev.gauntlet.trainevents.figures.LifecycleFigures}), dbworkload's table
 * ({@link dev.gauntlet.trainevents.figures.CycleTable}), and the comparison of a matrix of variants and pool modes
 * ({@link dev.gauntlet.trainevents.figures.MatrixReport}).
 */
package dev.gauntlet.trainevents.figures;

/**
 * Experiments: a matrix of {@link dev.gauntlet.core.experiment.Dimension}s whose
 * {@link dev.gauntlet.core.experiment.Cell}s run in turn with one seed, repeated A B A B, and compared in one
 * report ({@link dev.gauntlet.core.experiment.ExperimentRunner}). A workload declares its dimensions (server settings
 * as SQL levels, or levels it interprets itself, such as a schema variant or a pool mode) and runs a cell.
 */
package dev.gauntlet.core.experiment;

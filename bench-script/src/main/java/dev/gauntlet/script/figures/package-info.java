/**
 * The figures of a run of scripts: pgbench's summary lines with pgbench's meaning, then Gauntlet's percentiles from the
 * intended start, per script and per command.
 */
package dev.gauntlet.script.figures;

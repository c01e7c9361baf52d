/**
 * The result format ({@code result.json}, versioned by {@link dev.gauntlet.core.result.RunResult#SCHEMA_VERSION}):
 * records that are the public contract, the histogram codec, atomic and durable file writes, redaction. Workloads
 * add figures with {@link dev.gauntlet.core.result.Metrics} (each declared with its
 * {@link dev.gauntlet.core.result.MetricInfo}) and {@link dev.gauntlet.core.result.Check}s.
 */
package dev.gauntlet.core.result;

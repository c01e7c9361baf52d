/**
 * The result format ({@code result.json}, versioned by {@link dev.gauntlet.core.result.RunResult#SCHEMA_VERSION}):
 * records that are the public contract, the histogram codec, atomic and durable file writes, redaction. Workloads
 * add figures with {@link dev.gauntlet.core.result.Metrics} (each declared with its
 * {@link dev.gauntlet.core.result.MetricInfo}) and {@link dev.gauntlet.core.result.Check}s. A run's every interval at
 * full resolution is in its {@link dev.gauntlet.core.result.TimelineFile} beside the result, which keeps them
 * downsampled once there are many ({@link dev.gauntlet.core.result.InlineIntervals}); readers that need them all go
 * through a {@link dev.gauntlet.core.result.Timeline}.
 */
package dev.gauntlet.core.result;

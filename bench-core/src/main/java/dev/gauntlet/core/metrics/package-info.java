/**
 * Recording: striped nanosecond latency recorders ({@link dev.gauntlet.core.metrics.LatencyRecorder}), per-operation
 * statistics, the error tally and the {@code .hlog} interval log. Internal to the runner; workloads see only
 * {@link dev.gauntlet.core.metrics.Counters} (what a committed operation counted).
 */
package dev.gauntlet.core.metrics;

/**
 * What a run reads from the server besides its own operations: phase probes (server CPU, round trips, WAL bytes)
 * that each declare the per-operation metric they add, and gauge probes sampled every interval (wait events,
 * PostgreSQL's gauges, replication health). The engine reads them through its {@code PhaseProbe} and
 * {@code GaugeProbe} interfaces and never names one.
 */
package dev.gauntlet.sql.observe;

/**
 * The runner and its SPI for workloads.
 *
 * <p><b>SPI (what a workload implements or builds):</b> {@link dev.gauntlet.core.run.Workload} (a
 * {@link dev.gauntlet.core.run.ClientScript} per client, by {@link dev.gauntlet.core.run.ClientId}),
 * {@link dev.gauntlet.core.run.Step}, {@link dev.gauntlet.core.run.Operation} (one attempt, told what it observes
 * through its {@link dev.gauntlet.core.run.Attempt}), {@link dev.gauntlet.core.run.Target} (sessions, transactions
 * and the classification of failures into {@link dev.gauntlet.core.run.Failure} kinds),
 * {@link dev.gauntlet.core.run.RunPlan} with its {@link dev.gauntlet.core.run.Role}s,
 * {@link dev.gauntlet.core.run.PhasePlan}s and {@link dev.gauntlet.core.run.DisruptionPlan}s,
 * {@link dev.gauntlet.core.run.Disruption}, {@link dev.gauntlet.core.run.PhaseProbe},
 * {@link dev.gauntlet.core.run.RunListener}, and {@link dev.gauntlet.core.run.RunClock} (the one clock for
 * timestamps stored in data).
 *
 * <p><b>Internal:</b> {@link dev.gauntlet.core.run.Runner} (clients as state machines on a bounded worker pool,
 * timing, retries, reconnects, intervals, phases, disruptions), {@link dev.gauntlet.core.run.RateSchedule},
 * {@link dev.gauntlet.core.run.Backoff}, {@link dev.gauntlet.core.run.ProgressPrinter},
 * {@link dev.gauntlet.core.run.RunRecord}. A workload never times anything, creates a histogram, retries or
 * reconnects: if it needs to, the runner is missing a feature.
 */
package dev.gauntlet.core.run;

/**
 * Performance under adversity: plan files ({@link dev.gauntlet.sql.adversity.PlanFile}) of phases and scheduled
 * disruptions, the disruptions themselves (process, network, disk, SQL-level and replication faults), the system
 * under test they act on, and the phase condition {@code until: recovered}. The engine's runner only starts and stops
 * a {@code Disruption} on schedule, and the core's {@code RecoveryAnalysis} judges a result (a merged one too);
 * everything that knows a server lives here.
 */
package dev.gauntlet.sql.adversity;

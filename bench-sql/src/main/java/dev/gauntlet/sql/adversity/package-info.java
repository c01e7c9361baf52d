/**
 * Performance under adversity: plan files ({@link dev.gauntlet.sql.adversity.PlanFile}) of phases and scheduled
 * disruptions, the disruptions themselves (process, network, disk, SQL-level and replication faults), the system
 * under test they act on, and the recovery analysis of a finished run. The engine's runner only starts and stops a
 * {@code Disruption} on schedule; everything that knows a server lives here.
 */
package dev.gauntlet.sql.adversity;

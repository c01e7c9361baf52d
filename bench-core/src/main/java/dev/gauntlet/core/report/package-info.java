/**
 * Reports as functions of results alone: report.md and charts ({@link dev.gauntlet.core.report.RunReport}), the
 * interactive, self-contained dashboard.html ({@link dev.gauntlet.core.report.Dashboard}),
 * comparisons of sides of one or more runs with confidence intervals ({@link dev.gauntlet.core.report.Comparison}),
 * merges of concurrent driver processes ({@link dev.gauntlet.core.report.ResultMerge}), and the recovery and
 * availability of a run through faults ({@link dev.gauntlet.core.report.RecoveryAnalysis}). Used by the CLI and by
 * workloads that write their own summaries; never needs a database.
 */
package dev.gauntlet.core.report;

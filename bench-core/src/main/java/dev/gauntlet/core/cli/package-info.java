/**
 * The command line every workload shares: option mixins ({@link dev.gauntlet.core.cli.RunOptions},
 * {@link dev.gauntlet.core.cli.ExperimentOptions}), one run from announcement to report
 * ({@link dev.gauntlet.core.cli.Benchmark}), exit codes and one-line errors
 * ({@link dev.gauntlet.core.cli.GauntletCommandLine}), the {@code report} subcommands. A workload's commands use
 * these; nothing here knows a workload or a database (the SQL module's {@code dev.gauntlet.sql.cli} adds the
 * connection options and the SQL run).
 */
package dev.gauntlet.core.cli;

package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * The {@code bench-tpcc} command line. Without a subcommand it runs the default job: on the embedded
 * PostgreSQL, load 2 warehouses if they are not there, run 60 s without waits, check, and report. Its {@code check}
 * and {@code drop} are the generic ones over {@link TpccTables}.
 */
@Command(name = "bench-tpcc", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        subcommands = {InitCommand.class, RunCommand.class},
        description = {"TPC-C-derived OLTP workload: tpmC, efficiency of keyed runs, latency percentiles, consistency "
                + "checks and A/B experiments on server settings. (Not an audited TPC-C; TPC-C is a trademark of the TPC.)",
                "Without a command: the default job, equivalent to 'bench-tpcc run " + TpccCommand.DEFAULT_JOB_TEXT + "'."},
        footer = {"", "Typical use: init --warehouses 4, then run --duration 5m, then check.",
                "Results: report render DIR | report compare A B | report merge DIR... (see report --help).",
                "", "Examples:",
                "  bench-tpcc                # the default job: run " + TpccCommand.DEFAULT_JOB_TEXT + ", embedded",
                "  bench-tpcc run --help     # every option of a run",
                "  bench-tpcc run --init --warehouses 4 --url jdbc:postgresql://host:5432/db --user bench --duration 5m"})
public final class TpccCommand extends SqlWorkloadCommand {

    static final String DEFAULT_JOB_TEXT = "--init --warehouses 2 --duration 60s --prime auto:45s";

    public TpccCommand() {
        super(new TpccTables(), DEFAULT_JOB_TEXT);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new TpccCommand(), args);
    }
}

package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.WorkloadCommand;
import picocli.CommandLine.Command;

/** The {@code bench-tpcc} command line. */
@Command(name = "bench-tpcc", mixinStandardHelpOptions = true,
        subcommands = {InitCommand.class},
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "TPC-C-derived OLTP workload: tpmC, efficiency, latency percentiles, consistency checks and A/B experiments on server settings.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class TpccCommand extends WorkloadCommand {

    public static void main(String[] args) {
        GauntletCommandLine.main(new TpccCommand(), args);
    }
}

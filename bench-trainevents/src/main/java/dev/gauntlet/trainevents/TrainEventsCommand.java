package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.WorkloadCommand;
import picocli.CommandLine.Command;

/** The {@code bench-trainevents} command line. */
@Command(name = "bench-trainevents", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "The railway event lifecycle (add, process, archive) over JSONB, JSONB-manual and TEXT schemas, direct vs pooled connections.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help).",
                "", "Examples:",
                "  bench-trainevents report compare reports/queue/queue-delete reports/queue/queue-archive",
                "  bench-trainevents report render results/tpcc-20261123-183750-e7315e   # rebuild report.md, charts",
                "  bench-trainevents report merge results/driver-1 results/driver-2 --out results/merged"})
public final class TrainEventsCommand extends WorkloadCommand {

    public static void main(String[] args) {
        GauntletCommandLine.main(new TrainEventsCommand(), args);
    }
}

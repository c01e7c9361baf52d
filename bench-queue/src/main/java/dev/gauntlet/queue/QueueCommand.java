package dev.gauntlet.queue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.WorkloadCommand;
import picocli.CommandLine.Command;

/** The {@code bench-queue} command line. */
@Command(name = "bench-queue", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "PostgreSQL as a pub/sub log and as a SKIP LOCKED queue, measured end to end.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class QueueCommand extends WorkloadCommand {

    public static void main(String[] args) {
        GauntletCommandLine.main(new QueueCommand(), args);
    }
}

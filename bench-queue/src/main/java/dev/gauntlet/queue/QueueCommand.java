package dev.gauntlet.queue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import picocli.CommandLine.Command;

/** The {@code bench-queue} command line. */
@Command(name = "bench-queue", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "PostgreSQL as a pub/sub log and as a SKIP LOCKED queue, measured end to end.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class QueueCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new QueueCommand(), args);
    }
}

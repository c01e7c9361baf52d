package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.GauntletCommandLine;
import picocli.CommandLine.Command;

/** The {@code bench-trainevents} command line. */
@Command(name = "bench-trainevents", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        description = "The railway event lifecycle (add, process, archive) over JSONB, JSONB-manual and TEXT schemas, direct vs pooled connections.",
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help)."})
public final class TrainEventsCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new TrainEventsCommand(), args);
    }
}

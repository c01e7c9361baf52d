package dev.gauntlet.queue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * The {@code bench-queue} command line. Without a command it runs the default job: a short pub/sub run with the
 * reference tool's parameters on the embedded PostgreSQL.
 */
@Command(name = "bench-queue", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        subcommands = RunCommand.class,
        description = {"PostgreSQL as a pub/sub log or a work queue (FOR UPDATE SKIP LOCKED), measured end to end, "
                + "delivery verified.",
                "Without a command: the default job, 'bench-queue run " + QueueCommand.DEFAULT_JOB_TEXT + "'."},
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help).",
                "", "Examples:",
                "  bench-queue               # the default job: run " + QueueCommand.DEFAULT_JOB_TEXT
                        + ", embedded",
                "  bench-queue run --help    # every option of a run",
                "  bench-queue run --mode queue --ack delete --url jdbc:postgresql://host:5432/db --user bench"})
public final class QueueCommand extends SqlWorkloadCommand {

    static final String NAME = "queue";
    static final String DEFAULT_JOB_TEXT = "--throttle-writes 5000 --duration 30s --warmup 5s --prime auto:45s";

    public QueueCommand() {
        super(new QueueTables(), DEFAULT_JOB_TEXT);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new QueueCommand(), args);
    }
}

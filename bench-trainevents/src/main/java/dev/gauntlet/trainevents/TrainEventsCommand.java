package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * The {@code bench-trainevents} command line. Without a command it runs the default job: a short run of the jsonb
 * variant on the embedded PostgreSQL.
 */
@Command(name = "bench-trainevents", mixinStandardHelpOptions = true,
        versionProvider = dev.gauntlet.core.cli.VersionProvider.class,
        subcommands = RunCommand.class,
        description = {"The railway event lifecycle (add, process, archive) over JSONB, JSONB-manual and TEXT schemas, "
                + "direct connections vs transaction pooling (HikariCP, or a real PgBouncer).",
                "Without a command: the default job, 'bench-trainevents run " + TrainEventsCommand.DEFAULT_JOB_TEXT + "'."},
        footer = {"", "Results: report render DIR | report compare A B | report merge DIR... (see report --help).",
                "", "Examples:",
                "  bench-trainevents               # the default job: run " + TrainEventsCommand.DEFAULT_JOB_TEXT
                        + ", embedded",
                "  bench-trainevents run --help    # every option of a run",
                "  bench-trainevents run --variant jsonb,jsonb-manual,text --pool direct,pooled --clients 64 --pool-size 8"})
public final class TrainEventsCommand extends SqlWorkloadCommand {

    static final String NAME = "trainevents";
    static final String DEFAULT_JOB_TEXT = "--clients 16 --delay 100ms --duration 30s --warmup 5s --prime 30s";

    public TrainEventsCommand() {
        super(new TrainEventTables(), DEFAULT_JOB_TEXT);
    }

    public static void main(String[] args) {
        GauntletCommandLine.main(new TrainEventsCommand(), args);
    }
}

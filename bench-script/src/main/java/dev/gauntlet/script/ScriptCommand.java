package dev.gauntlet.script;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.cli.VersionProvider;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * {@code bench-script}: pgbench's scripts, run unchanged, measured the Gauntlet way. {@code init}, {@code check} and
 * {@code drop} are the generic ones over {@link PgbenchTables}; {@code run} is {@link RunCommand}. Without a command it
 * runs the default job: the TPC-B-like built-in on the embedded PostgreSQL for 30 s, with its checks.
 */
@Command(name = "bench-script", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        subcommands = RunCommand.class,
        description = {"pgbench scripts, run unchanged: the pgbench tables (init -s N as pgbench -i), the built-in "
                + "scripts and your own in PostgreSQL 15 pgbench's language, with pgbench's options and summary, "
                + "latency from the intended start, runs through faults, experiments, merges and checks.",
                "Without a command: the default job, 'bench-script run " + ScriptCommand.DEFAULT_JOB_TEXT + "'."},
        footer = {"", "Results: report render DIR | report compare A B | report history DIR (see report --help).",
                "", "Examples:",
                "  bench-script                       # the default job: run " + ScriptCommand.DEFAULT_JOB_TEXT
                        + ", embedded",
                "  bench-script init -s 10 --url jdbc:postgresql://db:5432/bench --user bench",
                "  bench-script run -c 8 -j 2 -T 60 -M prepared --url jdbc:postgresql://db:5432/bench --user bench",
                "  bench-script run -f my.sql@3 -b select-only@1 -c 16 -T 120 -r",
                "  bench-script run --help            # every option of a run",
                "  bench-script pgbench -c 8 -j 2 -T 60 -M prepared bench   # pgbench's own command line (alias pgbench=...)"})
public final class ScriptCommand extends SqlWorkloadCommand {

    static final String DEFAULT_JOB_TEXT = "--init -s 1 -c 8 -T 30 --prime auto:45s";

    public ScriptCommand() {
        super(new PgbenchTables(), DEFAULT_JOB_TEXT);
    }

    @Override
    protected void addCommands(picocli.CommandLine cli) {
        super.addCommands(cli);
        cli.addSubcommand("pgbench", new PgbenchCommand());
        cli.getSubcommands().get("pgbench").setUnmatchedOptionsArePositionalParams(true);
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("pgbench")) {
            // pgbench's command line as pgbench reads it: not through picocli, which would take "--" itself
            System.exit(PgbenchCommand.dropIn().run(java.util.List.of(args).subList(1, args.length)));
        }
        GauntletCommandLine.main(new ScriptCommand(), args);
    }
}

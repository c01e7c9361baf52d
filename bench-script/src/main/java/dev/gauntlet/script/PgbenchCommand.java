package dev.gauntlet.script;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.script.pgbench.BenchmarkCommand;
import dev.gauntlet.script.pgbench.PgbenchDropIn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bench-script pgbench [pgbench's options] [dbname]}: the drop-in for pgbench 15 ({@link PgbenchDropIn}). Its
 * arguments are pgbench's, read as pgbench reads them, so picocli hands them over untouched, {@code --help} included
 * (pgbench's own help).
 */
@Command(name = "pgbench",
        description = {"pgbench 15's command line, run by Gauntlet: the same options, defaults (1 client, 10 "
                + "transactions), output, streams and exit status, connecting as libpq does (-h -p -U, the database "
                + "argument, PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD or the password file, PGSSLMODE, "
                + "PGOPTIONS); alias pgbench to it. Gauntlet's result.json, report.md and dashboard are written beside "
                + "pgbench's output (named on standard error when that is a terminal). 'bench-script pgbench --help' "
                + "lists pgbench's options."},
        footer = {"", "Examples:",
                "  bench-script pgbench -i -s 10 bench                 # initialize, as pgbench -i",
                "  bench-script pgbench -c 8 -j 2 -T 60 -M prepared bench",
                "  PGHOST=db PGUSER=bench bench-script pgbench -n -f my.sql@3 -b select-only@1 -T 120 -r",
                "  alias pgbench='bench-script pgbench'               # then pgbench's command lines run unchanged"})
public final class PgbenchCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "PGBENCH_ARGUMENTS", description = "pgbench's options and database name.")
    List<String> arguments = new ArrayList<>();

    @Override
    public Integer call() {
        return dropIn().run(arguments);
    }

    /** The drop-in on the process's environment and streams, running its benchmark as {@code bench-script run}. */
    static PgbenchDropIn dropIn() {
        return new PgbenchDropIn(System.getenv(), System.out, System.err, (arguments, console, failures) -> {
            CommandLine cli = GauntletCommandLine.create(new ScriptCommand());
            CommandLine run = cli.getSubcommands().get("run");
            RunCommand command = run.getCommand();
            command.console(console);
            cli.setErr(failures);
            run.setErr(failures);
            int code = cli.execute(arguments);
            return new BenchmarkCommand.Ended(code, command.clientsAborted());
        });
    }
}

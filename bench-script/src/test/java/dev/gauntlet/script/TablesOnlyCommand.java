package dev.gauntlet.script;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.sql.cli.SqlWorkloadCommand;
import picocli.CommandLine.Command;

/**
 * The generic {@code init}, {@code check} and {@code drop} over {@link PgbenchTables}, as the module's program will
 * have them ({@code super(new PgbenchTables(), ...)}), for the tests until it exists; no {@code run}.
 */
@Command(name = "bench-script", mixinStandardHelpOptions = true,
        description = "The pgbench tables: init, check and drop.",
        footer = {"", "Examples:", "  bench-script init -s 10", "  bench-script check"})
public final class TablesOnlyCommand extends SqlWorkloadCommand {

    public TablesOnlyCommand() {
        super(new PgbenchTables(), "");
    }

    /** The program in a JVM of its own ({@link InitTiming}). */
    public static void main(String[] args) {
        GauntletCommandLine.main(new TablesOnlyCommand(), args);
    }
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.sql.Rendezvous;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drop} of a {@link SqlTables}: its tables, and what split runs left ({@link Rendezvous#drop}). */
@Command(name = "drop", mixinStandardHelpOptions = true)
final class DropTables implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    private final SqlTables<?> definition;

    DropTables(SqlTables<?> definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() {
        return connection.admin(definition.name(), "drop", c -> {
            definition.drop(c);
            Rendezvous.drop(c);
            System.out.println("Dropped " + definition.tables() + ".");
            return ExitCode.OK;
        });
    }
}

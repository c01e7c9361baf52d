package dev.gauntlet.sql.cli;

import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code drop} of a {@link SqlWorkload}: its tables, and what split runs left. */
@Command(name = "drop", mixinStandardHelpOptions = true)
final class DropTables extends DropCommand {

    private final SqlWorkload<?, ?> definition;

    DropTables(SqlWorkload<?, ?> definition) {
        super(definition.name(), definition.tables());
        this.definition = definition;
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        definition.drop(c);
    }
}

package dev.gauntlet.tpcc;

import dev.gauntlet.tpcc.schema.Schema;
import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code drop}: removes the TPC-C tables. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the nine TPC-C tables and the load record.",
        footer = {"", "Examples:",
                "  bench-tpcc drop",
                "  bench-tpcc drop --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it"})
public final class DropCommand extends dev.gauntlet.sql.cli.DropCommand {

    public DropCommand() {
        super(TpccDatabase.NAME, "the TPC-C tables");
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        Schema.drop(c);
    }
}

package dev.gauntlet.example;

import dev.gauntlet.example.schema.KvSchema;
import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code drop}: removes the kv table. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the kv table.",
        footer = {"", "Examples:",
                "  bench-kv drop",
                "  bench-kv drop --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it"})
public final class DropCommand extends dev.gauntlet.sql.cli.DropCommand {

    public DropCommand() {
        super(KvCommand.NAME, "the kv table");
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        KvSchema.drop(c);
    }
}

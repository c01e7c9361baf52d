package dev.gauntlet.queue;

import dev.gauntlet.queue.schema.LogSchema;
import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code drop}: removes the log. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the log's tables and the consumer offsets.")
public final class DropCommand extends dev.gauntlet.core.cli.DropCommand {

    public DropCommand() {
        super(QueueCommand.NAME, "the log");
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        LogSchema.drop(c);
    }
}

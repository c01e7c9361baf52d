package dev.gauntlet.queue;

import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.schema.QueueSchema;
import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code drop}: removes the log. */
@Command(name = "drop", mixinStandardHelpOptions = true,
        description = "Drops the log's tables, the consumer offsets, and the queue's tables.",
        footer = {"", "Examples:",
                "  bench-queue drop",
                "  bench-queue drop --url jdbc:postgresql://host:5432/db --user bench"})
public final class DropCommand extends dev.gauntlet.sql.cli.DropCommand {

    public DropCommand() {
        super(QueueCommand.NAME, "the log and the queue");
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        LogSchema.drop(c);
        QueueSchema.drop(c);
    }
}

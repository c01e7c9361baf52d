package dev.gauntlet.queue;

import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.queue.schema.LogSchema;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-queue drop}: removes the log. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the log's tables and the consumer offsets.")
public final class DropCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        return connection.admin(QueueCommand.NAME, "drop", c -> {
            LogSchema.drop(c);
            System.out.println("Dropped the log.");
            return ExitCode.OK;
        });
    }
}

package dev.gauntlet.example;

import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.example.schema.KvSchema;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-kv drop}: removes the table. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the kv table.")
public final class DropCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        return connection.admin(KvCommand.NAME, "drop", c -> {
            KvSchema.drop(c);
            System.out.println("Dropped the kv table.");
            return ExitCode.OK;
        });
    }
}

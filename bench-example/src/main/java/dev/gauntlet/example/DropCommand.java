package dev.gauntlet.example;

import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.db.Database;
import dev.gauntlet.core.db.SqlStates;
import dev.gauntlet.example.schema.KvSchema;
import java.sql.Connection;
import java.sql.SQLException;
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
        try (Database db = connection.open(KvCommand.NAME, System.out); Connection c = db.settings().connectForAdmin()) {
            KvSchema.drop(c);
            System.out.println("Dropped the kv table.");
            return ExitCode.OK;
        } catch (SQLException e) {
            throw new RunFailedException("drop failed: " + SqlStates.message(e), e);
        }
    }
}

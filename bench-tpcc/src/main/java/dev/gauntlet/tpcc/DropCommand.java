package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.tpcc.schema.Schema;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-tpcc drop}: removes the TPC-C tables. */
@Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops the nine TPC-C tables and the load record.")
public final class DropCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        return connection.admin(TpccDatabase.NAME, "drop", c -> {
            Schema.drop(c);
            System.out.println("Dropped the TPC-C tables.");
            return ExitCode.OK;
        });
    }
}

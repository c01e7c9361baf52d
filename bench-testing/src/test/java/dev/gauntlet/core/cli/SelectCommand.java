package dev.gauntlet.core.cli;

import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.SqlBenchmark;
import java.sql.Statement;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A minimal workload command built from the shared mixins, as every workload's {@code run} is. */
@Command(name = "bench-select", mixinStandardHelpOptions = true, subcommands = SelectCommand.Run.class)
final class SelectCommand {

    @Command(name = "run", mixinStandardHelpOptions = true, description = "Runs 'select 1' as fast as it can.")
    static final class Run implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;
        @Mixin
        RunOptions options;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return SqlBenchmark.of(spec, "select", connection, options, (db, plan) -> db).database("select_test")
                    .workload((db, cell) -> Workload.repeating(Operation.of("select", c -> {
                        try (Statement s = c.createStatement()) {
                            s.executeQuery("select 1").close();
                        }
                    })))
                    .call();
        }
    }
}

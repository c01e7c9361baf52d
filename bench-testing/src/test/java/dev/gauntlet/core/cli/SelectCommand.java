package dev.gauntlet.core.cli;

import dev.gauntlet.core.db.Database;
import dev.gauntlet.core.db.JdbcTarget;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
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
            var plan = options.plan();
            Path out = OutputDirectory.check(options.out() != null ? options.out() : OutputDirectory.defaultFor("select", null));
            try (Database db = connection.open("select_test", System.out); JdbcTarget target = connection.target(db)) {
                Operation<Connection> select = Operation.of("select", c -> {
                    try (Statement s = c.createStatement()) {
                        s.executeQuery("select 1").close();
                    }
                });
                Workload<Connection> workload = new Workload<>() {
                    @Override
                    public List<String> operationNames() {
                        return List.of("select");
                    }

                    @Override
                    public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
                        return () -> Step.now(select);
                    }
                };
                new Benchmark("bench-select", "select", spec.commandLine().getParseResult().originalArgs(), System.out)
                        .run(new Benchmark.Spec<>(plan, workload, target, null, Map.of("pool", connection.pool().name()),
                                Provenance.environment(db.version(), db.settings().url()), out, r -> r));
            }
            return ExitCode.OK;
        }
    }
}

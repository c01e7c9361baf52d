package dev.gauntlet.queue;

import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.sql.cli.ConnectionOptions;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-queue init}: creates the mode's empty tables. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Creates the empty tables of --mode pubsub (log_p0.., log_tip, log_retention, consumer_offsets) "
                + "or --mode queue (queue_messages, and queue_archive with --ack archive), replacing any there.",
                "'run' starts every run from empty tables of its own, so init is for looking at the schema or "
                        + "driving it with other tools."},
        footer = {"", "Examples:",
                "  bench-queue init                                # pub/sub: 4 partitions, 5 consumer groups, embedded",
                "  bench-queue init --mode queue --ack archive     # queue_messages and queue_archive",
                "  bench-queue init --partitions 8 --consumer-groups 2 --url jdbc:postgresql://host:5432/db --user bench"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    ModeOptions layout;

    @Override
    public Integer call() {
        layout.validate(List.of());
        connection.admin(QueueCommand.NAME, "init", c -> {
            layout.create(c);
            return null;
        });
        System.out.println("Created the " + layout.mode + " tables");
        return ExitCode.OK;
    }
}

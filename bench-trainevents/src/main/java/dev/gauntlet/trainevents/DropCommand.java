package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-trainevents drop}: removes the tables. */
@Command(name = "drop", mixinStandardHelpOptions = true,
        description = "Drops train_events, train_event_status and train_events_archive.",
        footer = {"", "Examples:",
                "  bench-trainevents drop",
                "  bench-trainevents drop --url jdbc:postgresql://db:5432/rail --user bench"})
public final class DropCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        connection.admin(TrainEventsCommand.NAME, "drop", c -> {
            EventTables.drop(c);
            return null;
        });
        System.out.println("Dropped the train-event tables");
        return ExitCode.OK;
    }
}

package dev.gauntlet.trainevents;

import dev.gauntlet.trainevents.schema.EventTables;
import java.sql.Connection;
import java.sql.SQLException;
import picocli.CommandLine.Command;

/** {@code bench-trainevents drop}: removes the tables. */
@Command(name = "drop", mixinStandardHelpOptions = true,
        description = "Drops train_events, train_event_status and train_events_archive.",
        footer = {"", "Examples:",
                "  bench-trainevents drop",
                "  bench-trainevents drop --url jdbc:postgresql://db:5432/rail --user bench"})
public final class DropCommand extends dev.gauntlet.sql.cli.DropCommand {

    public DropCommand() {
        super(TrainEventsCommand.NAME, "the train-event tables");
    }

    @Override
    protected void drop(Connection c) throws SQLException {
        EventTables.drop(c);
    }
}

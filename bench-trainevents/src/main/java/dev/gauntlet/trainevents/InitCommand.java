package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.trainevents.schema.EventTables;
import dev.gauntlet.trainevents.workload.Variant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-trainevents init}: a variant's tables, seeded. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Creates the tables of one variant (train_events, train_event_status, train_events_archive), "
                + "replacing any there, and adds --seed-events PENDING events.",
                "'run' starts every run from tables of its own, so init is for looking at the schema and data, or "
                        + "driving them with other tools."},
        footer = {"", "Examples:",
                "  bench-trainevents init --variant text --seed-events 100000",
                "  bench-trainevents init --variant jsonb --url jdbc:postgresql://db:5432/rail --user bench"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Option(names = "--variant", paramLabel = "NAME", defaultValue = "jsonb",
            description = "jsonb, jsonb-manual or text (default: ${DEFAULT-VALUE}).")
    String variant;
    @Option(names = "--seed-events", paramLabel = "N", defaultValue = "10000",
            description = "PENDING events to add (default: ${DEFAULT-VALUE}).")
    long seedEvents;
    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed of the events (default: ${DEFAULT-VALUE}).")
    long seed;

    @Override
    public Integer call() {
        Variant v;
        try {
            v = Variant.parse(variant);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        if (seedEvents < 0) {
            throw new BadInputException("--seed-events must not be negative (got " + seedEvents + ")");
        }
        boolean[] cockroach = new boolean[1];
        connection.admin(TrainEventsCommand.NAME, "init", c -> {
            cockroach[0] = c.getMetaData().getDatabaseProductVersion().contains("Cockroach");
            EventTables.create(c, v, cockroach[0], seedEvents, seed, null);
            return null;
        });
        System.out.printf("Created the %s tables with %,d PENDING events%n", v, seedEvents);
        return ExitCode.OK;
    }
}

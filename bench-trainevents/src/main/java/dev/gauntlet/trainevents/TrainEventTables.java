package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.sql.cli.SqlSchema;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.schema.EventTables;
import dev.gauntlet.trainevents.workload.Variant;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * A variant's train-event tables as the generic {@code init}, {@code check} and {@code drop} see them; {@code run} is
 * train events' own ({@link RunCommand}: every run starts from tables of its own).
 */
final class TrainEventTables implements SqlSchema<Variant> {

    /** {@code init}'s options. */
    static final class LoadOptions {
        @Option(names = "--variant", paramLabel = "NAME", defaultValue = "jsonb",
                description = "jsonb, jsonb-manual or text (default: ${DEFAULT-VALUE}).")
        String variant;
        @Option(names = "--seed-events", paramLabel = "N", defaultValue = "10000",
                description = "PENDING events to add (default: ${DEFAULT-VALUE}).")
        long seedEvents;
        @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
                description = "Random seed of the events (default: ${DEFAULT-VALUE}).")
        long seed;
    }

    private final LoadOptions load = new LoadOptions();

    @Override
    public String name() {
        return TrainEventsCommand.NAME;
    }

    @Override
    public String tables() {
        return "the train-event tables";
    }

    @Override
    public String description(String command) {
        return switch (command) {
            case "init" -> "Creates the tables of one variant (train_events, train_event_status, train_events_archive) "
                    + "and adds --seed-events PENDING events, in one transaction; --drop replaces what is there.%n"
                    + "'run' starts every run from tables of its own, so init is for looking at the schema and data, "
                    + "or driving them with other tools.";
            case "check" -> "Checks the tables a run (or init) left: no event both live and archived, status rows and "
                    + "events match, only terminal events archived, each payload's lifecycle equals its status, and "
                    + "the flat columns equal the payload's values.%n"
                    + "A run checks more (no event lost, none unexpected, no process or archive it heard commit undone) "
                    + "from the ledger it keeps while it runs; --ledger DIR checks that again from the ledger the run "
                    + "left in DIR, against the tables as they are now (a driver that died: 'report recover DIR' "
                    + "first). Where that ledger cannot hold all the run's adds (one process's of a run split with "
                    + "--worker, a driver's that died), 'no event the driver did not add' is skipped, saying why.";
            case "drop" -> "Drops train_events, train_event_status and train_events_archive.";
            default -> SqlSchema.super.description(command);
        };
    }

    @Override
    public List<String> examples(String command) {
        return switch (command) {
            case "init" -> List.of("bench-trainevents init --variant text --seed-events 100000",
                    "bench-trainevents init --drop --variant jsonb --url jdbc:postgresql://db:5432/rail --user bench");
            case "check" -> List.of(
                    "bench-trainevents check     # the tables the last run on the embedded PostgreSQL left",
                    "bench-trainevents check --url jdbc:postgresql://db:5432/rail --user bench --password",
                    "bench-trainevents report recover results/trainevents-20261123-183750-e7315e   # its driver died",
                    "bench-trainevents check --ledger results/trainevents-20261123-183750-e7315e   # none lost");
            default -> List.of("bench-trainevents " + command,
                    "bench-trainevents " + command + " --url jdbc:postgresql://db:5432/rail --user bench");
        };
    }

    @Override
    public Object loadOptions() {
        return load;
    }

    @Override
    public Variant loaded(Connection c) throws SQLException {
        return Variant.installed(c).orElse(null);
    }

    @Override
    public Variant load(Connection c) throws SQLException {
        Variant v;
        try {
            v = Variant.parse(load.variant);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        if (load.seedEvents < 0) {
            throw new BadInputException("--seed-events must not be negative (got " + load.seedEvents + ")");
        }
        boolean cockroach = c.getMetaData().getDatabaseProductVersion().contains("Cockroach");
        EventTables.create(c, v, cockroach, load.seedEvents, load.seed, null);
        return v;
    }

    @Override
    public String describe(Variant v) {
        return "the " + v + " tables";
    }

    @Override
    public void drop(Connection c) throws SQLException {
        EventTables.drop(c);
    }

    @Override
    public List<Check> checks(Connection c, Variant v) throws SQLException {
        return SqlChecks.run(c, EventChecks.tables(v), CheckScope.all());
    }

    /** The event checks of the run whose ledger is in {@code dir} ({@link RunLedger}). */
    @Override
    public List<Check> ledgerChecks(Connection c, Variant v, Path dir) throws SQLException {
        return RunLedger.checks(c, v, dir);
    }

    @Override
    public String checkName(Variant v) {
        return "train-event checks";
    }
}

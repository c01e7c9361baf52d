package dev.gauntlet.queue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.queue.checks.TableChecks;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.sql.cli.SqlSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The log's and the queue's tables as the generic {@code init}, {@code check} and {@code drop} see them; {@code run}
 * is the queue's own ({@link RunCommand}: every run starts from empty tables of its own).
 */
final class QueueTables implements SqlSchema<QueueTables.Found> {

    /** What is there: a log of {@code partitions} partitions (0: none), a queue, and its archive. */
    record Found(int partitions, boolean queue, boolean archive) {
    }

    private final ModeOptions layout = new ModeOptions();

    @Override
    public String name() {
        return QueueCommand.NAME;
    }

    @Override
    public String tables() {
        return "the log and the queue";
    }

    @Override
    public String description(String command) {
        return switch (command) {
            case "init" -> "Creates the empty tables of --mode pubsub (log_p0.., log_tip, log_retention, "
                    + "consumer_offsets) or --mode queue (queue_messages, and queue_archive with --ack archive); "
                    + "--drop replaces what is there.%n"
                    + "'run' starts every run from empty tables of its own, so init is for looking at the schema or "
                    + "driving it with other tools.";
            case "check" -> "Checks the tables a run left: the log gapless from its retained start to each tip and "
                    + "every committed offset within it; a queue holding no message twice (nor queued and archived "
                    + "at once).%n"
                    + "A run verifies more (none lost, none delivered twice) from the ledger it keeps while it runs.";
            case "drop" -> "Drops the log's tables, the consumer offsets, and the queue's tables.";
            default -> SqlSchema.super.description(command);
        };
    }

    @Override
    public List<String> examples(String command) {
        return switch (command) {
            case "init" -> List.of(
                    "bench-queue init                                # pub/sub: 4 partitions, 5 consumer groups, embedded",
                    "bench-queue init --mode queue --ack archive     # queue_messages and queue_archive",
                    "bench-queue init --drop --partitions 8 --consumer-groups 2 --url jdbc:postgresql://host:5432/db "
                            + "--user bench");
            case "check" -> List.of("bench-queue check     # the tables the last run on the embedded PostgreSQL left",
                    "bench-queue check --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it");
            default -> List.of("bench-queue " + command,
                    "bench-queue " + command + " --url jdbc:postgresql://host:5432/db --user bench");
        };
    }

    @Override
    public Object loadOptions() {
        return layout;
    }

    @Override
    public Found loaded(Connection c) throws SQLException {
        int partitions = LogSchema.partitions(c);
        boolean queue = QueueSchema.exists(c);
        if (partitions == 0 && !queue) {
            return null;
        }
        return new Found(partitions, queue, QueueSchema.archived(c));
    }

    @Override
    public Found load(Connection c) throws SQLException {
        layout.validate(List.of());
        layout.create(c);
        return loaded(c);
    }

    @Override
    public String describe(Found found) {
        List<String> what = new ArrayList<>();
        if (found.partitions() > 0) {
            what.add("a log of " + found.partitions() + (found.partitions() == 1 ? " partition" : " partitions"));
        }
        if (found.queue()) {
            what.add(found.archive() ? "a queue and its archive" : "a queue");
        }
        return String.join(" and ", what);
    }

    @Override
    public void drop(Connection c) throws SQLException {
        LogSchema.drop(c);
        QueueSchema.drop(c);
    }

    @Override
    public List<Check> checks(Connection c, Found found) throws SQLException {
        List<Check> all = new ArrayList<>();
        if (found.partitions() > 0) {
            all.addAll(SqlChecks.run(c, TableChecks.pubsub(found.partitions()), CheckScope.all()));
        }
        if (found.queue()) {
            all.addAll(SqlChecks.run(c, TableChecks.queue(found.archive()), CheckScope.all()));
        }
        return all;
    }
}

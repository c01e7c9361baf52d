package dev.gauntlet.queue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.queue.checks.TableChecks;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.sql.cli.SqlSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The log's and the queue's tables as the generic {@code init}, {@code check} and {@code drop} see them; {@code run}
 * is the queue's own ({@link RunCommand}: every run starts from empty tables of its own).
 */
final class QueueTables implements SqlSchema<QueueTables.Found> {

    /**
     * What is there: a log of {@code partitions} partitions (0: none), and a queue acknowledged by {@code ack} (null:
     * none).
     */
    record Found(int partitions, AckMode ack) {

        boolean queue() {
            return ack != null;
        }

        /** Whether the queue has its archive ({@code --ack archive}). */
        boolean archive() {
            return ack == AckMode.ARCHIVE;
        }
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
                    + "A run verifies more (none lost, none delivered twice) from the ledger it keeps while it runs; "
                    + "--ledger DIR verifies that again from the ledger the run left in DIR, against the tables as "
                    + "they are now (a driver that died: 'report recover DIR' first; its clients' last commits, in "
                    + "the tables and not the ledger, are settled against the tables, and with --ack delete the "
                    + "acknowledgements it had in flight leave no trace: a few messages gone with them are neither "
                    + "proven nor refuted). One process's DIR of a run split with --worker: pub/sub checks that "
                    + "process's partitions; a work queue is refused, its readers having taken every process's "
                    + "messages (worker 0 verified delivery over every ledger).";
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
                    "bench-queue check --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it",
                    "bench-queue report recover results/queue-20261123-183750-e7315e   # a run whose driver died",
                    "bench-queue check --ledger results/queue-20261123-183750-e7315e   # delivery, from its ledgers");
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
        AckMode ack = QueueSchema.ackMode(c);
        return partitions == 0 && ack == null ? null : new Found(partitions, ack);
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

    /** The delivery checks of the run whose ledger is in {@code dir} ({@link RunLedgers}). */
    @Override
    public List<Check> ledgerChecks(Connection c, Found found, Path dir) throws SQLException {
        return RunLedgers.checks(c, found, dir);
    }
}

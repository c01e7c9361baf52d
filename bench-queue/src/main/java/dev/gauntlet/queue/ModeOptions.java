package dev.gauntlet.queue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.queue.workqueue.AckMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The tables' shape, shared by {@code init} and {@code run}: the mode, and its partitions and groups or its ack. */
public final class ModeOptions {

    static final String PUBSUB = "pubsub";
    static final String QUEUE = "queue";

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = PUBSUB,
            description = "pubsub (a partitioned log read by consumer groups) or queue (competing consumers) "
                    + "(default: ${DEFAULT-VALUE}).")
    String mode;
    @Option(names = "--partitions", paramLabel = "N", defaultValue = "4", description = "pubsub: partition tables (default: ${DEFAULT-VALUE}).")
    int partitions;
    @Option(names = "--consumer-groups", paramLabel = "N", defaultValue = "5",
            description = "pubsub: consumer groups, each reading every message (default: ${DEFAULT-VALUE}).")
    int groups;
    @Option(names = "--ack", paramLabel = "HOW", defaultValue = "delete",
            description = "queue: how a reader acknowledges what it claimed: delete, archive (move to queue_archive) "
                    + "or flag (set acked_at) (default: ${DEFAULT-VALUE}).")
    String ack;

    /** Checks the options fit together; {@code pubsubOnly} are the caller's own options that make sense for pubsub only. */
    void validate(List<String> pubsubOnly) {
        var parsed = spec.commandLine().getParseResult();
        if (partitions < 1 || groups < 1) {
            throw new BadInputException((partitions < 1 ? "--partitions" : "--consumer-groups")
                    + " must be at least 1 (got " + Math.min(partitions, groups) + ")");
        }
        switch (mode) {
            case PUBSUB -> {
                if (parsed.hasMatchedOption("--ack")) {
                    throw new BadInputException("--ack applies to --mode queue; pub/sub readers commit offsets");
                }
            }
            case QUEUE -> {
                List<String> only = new java.util.ArrayList<>(List.of("--partitions", "--consumer-groups"));
                only.addAll(pubsubOnly);
                for (String option : only) {
                    if (parsed.hasMatchedOption(option)) {
                        throw new BadInputException(option + " applies to --mode pubsub (a queue is one table, and "
                                + "--ack delete keeps it bounded)");
                    }
                }
                ackMode();
            }
            default -> throw new BadInputException("--mode must be pubsub or queue (got '" + mode + "')");
        }
    }

    boolean pubsub() {
        return PUBSUB.equals(mode);
    }

    AckMode ackMode() {
        try {
            return AckMode.parse(ack);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--ack: " + e.getMessage(), e);
        }
    }

    /** Creates the mode's empty tables, dropping any there. */
    void create(Connection c) throws SQLException {
        if (pubsub()) {
            LogSchema.create(c, partitions, groups);
        } else {
            QueueSchema.create(c, ackMode());
        }
    }
}

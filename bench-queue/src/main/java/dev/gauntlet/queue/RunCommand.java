package dev.gauntlet.queue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ConnectionOptions;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.cli.SqlBenchmark;
import dev.gauntlet.core.db.Database;
import dev.gauntlet.core.db.SqlStates;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Role;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.figures.Throughput;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.schema.LogSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-queue run}: PostgreSQL as a pub/sub log, measured end to end, delivery verified. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Pub/sub over PostgreSQL: --writers publish batches into --partitions tables with gapless "
                + "offsets; --consumer-groups of --readers each read every message in order per partition.",
                "Reports write and read msg/s and MiB/s (per group and in total) over the measured time, write and "
                        + "read latency, end-to-end latency per message from the producer's timestamp (when its "
                        + "batch was due, so a throttled writer's queueing counts), empty polls and lag per group; "
                        + "then verifies delivery (none lost, none twice). Each run starts from an empty log."},
        footer = {"", "Examples:",
                "  bench-queue run --writers 10 --partitions 4 --consumer-groups 5 --readers 4 --write-batch 100 "
                        + "--read-batch 200 --payload 1024 --throttle-writes 5000 --duration 5m --warmup 30s"})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Spec
    CommandSpec spec;

    @Option(names = "--writers", paramLabel = "N", defaultValue = "10", description = "Writer clients (default: ${DEFAULT-VALUE}).")
    int writers;
    @Option(names = "--readers", paramLabel = "N", defaultValue = "4",
            description = "Readers per consumer group; any number: fewer than the partitions and each serves several, "
                    + "more and the extra ones stand by (default: ${DEFAULT-VALUE}).")
    int readers;
    @Option(names = "--partitions", paramLabel = "N", defaultValue = "4", description = "Partition tables (default: ${DEFAULT-VALUE}).")
    int partitions;
    @Option(names = "--consumer-groups", paramLabel = "N", defaultValue = "5",
            description = "Consumer groups, each reading every message (default: ${DEFAULT-VALUE}).")
    int groups;
    @Option(names = "--write-batch", paramLabel = "N", defaultValue = "100", description = "Messages per insert (default: ${DEFAULT-VALUE}).")
    int writeBatch;
    @Option(names = "--read-batch", paramLabel = "N", defaultValue = "200", description = "Messages per read at most (default: ${DEFAULT-VALUE}).")
    int readBatch;
    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "1024", description = "Bytes per message (default: ${DEFAULT-VALUE}).")
    int payload;
    @Option(names = "--throttle-writes", paramLabel = "MSG_PER_S", defaultValue = "0",
            description = "Writes in messages per second across all writers, open loop (batches due every "
                    + "write-batch/rate seconds); 0 (default): as fast as they go.")
    double throttle;
    @Option(names = "--poll-interval", paramLabel = "TIME", defaultValue = "5ms",
            converter = dev.gauntlet.core.cli.DurationConverter.class,
            description = "How long a reader waits after a poll that found nothing (default: ${DEFAULT-VALUE}).")
    Duration pollInterval;

    /** What the runs share; each run gets a fresh log and ledger. */
    private static final class Setup {
        final Database db;
        DeliveryLedger ledger;

        Setup(Database db) {
            this.db = db;
        }
    }

    @Override
    public Integer call() {
        validate();
        return SqlBenchmark.of(spec, QueueCommand.NAME, connection, options, (db, plan) -> new Setup(db))
                .experiments(experiments, List.of(), "Each run started from an empty log.")
                .plan((s, plan) -> plan(plan))
                .beforeEachRun(this::freshLog)
                .workload((s, cell) -> new PubSubWorkload(partitions, groups, readers, writeBatch, readBatch, payload,
                        pollInterval, s.ledger))
                .parameters((s, cell) -> parameters())
                .finish(this::finish)
                .call();
    }

    private void validate() {
        var parsed = spec.commandLine().getParseResult();
        for (String core : List.of("--clients", "--rate")) {
            if (parsed.hasMatchedOption(core)) {
                throw new BadInputException(core + " does not apply: use --writers, --readers and --throttle-writes");
            }
        }
        positive("--writers", writers);
        positive("--readers", readers);
        positive("--partitions", partitions);
        positive("--consumer-groups", groups);
        positive("--write-batch", writeBatch);
        positive("--read-batch", readBatch);
        if (payload < 1 || payload > (1 << 30)) {
            throw new BadInputException("--payload must be 1 byte to 1 GiB (got " + payload + ")");
        }
        if (!(throttle >= 0) || Double.isInfinite(throttle)) {
            throw new BadInputException("--throttle-writes must be 0 (unthrottled) or a positive rate (got " + throttle + ")");
        }
        if (pollInterval.isNegative()) {
            throw new BadInputException("--poll-interval must not be negative");
        }
    }

    private static void positive(String option, int value) {
        if (value < 1) {
            throw new BadInputException(option + " must be at least 1 (got " + value + ")");
        }
    }

    private RunPlan plan(RunPlan base) {
        Role writerRole = throttle > 0 ? Role.openLoop(PubSubWorkload.WRITERS, writers, throttle / writeBatch)
                : Role.closedLoop(PubSubWorkload.WRITERS, writers);
        RunPlan.Builder b = base.toBuilder().roles(List.of(writerRole,
                Role.closedLoop(PubSubWorkload.READERS, readers * groups)));
        if (!spec.commandLine().getParseResult().hasMatchedOption("--workers")) {
            b.workers(writers + readers * groups);
        }
        return b.build();
    }

    /** Every run starts from an empty log, with a ledger of its own. */
    private void freshLog(Setup s, Cell cell) {
        try (Connection c = s.db.settings().connectForAdmin()) {
            LogSchema.create(c, partitions, groups);
        } catch (SQLException e) {
            throw new RunFailedException("cannot create the log: " + SqlStates.message(e), e);
        }
        s.ledger = new DeliveryLedger(groups, partitions);
    }

    private Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("mode", "pubsub");
        p.put("writers", writers);
        p.put("readersPerGroup", readers);
        p.put("partitions", partitions);
        p.put("consumerGroups", groups);
        p.put("writeBatch", writeBatch);
        p.put("readBatch", readBatch);
        p.put("payloadBytes", payload);
        p.put("throttleWrites", throttle > 0 ? throttle + " msg/s" : "unthrottled");
        p.put("pollInterval", dev.gauntlet.core.cli.DurationConverter.format(pollInterval));
        return p;
    }

    private RunResult finish(Setup s, RunResult r) {
        List<Check> checks = new ArrayList<>(r.checks());
        try (Connection c = s.db.settings().connectForAdmin()) {
            DeliveryChecks.Delivery delivery = DeliveryChecks.run(c, s.ledger);
            checks.addAll(delivery.checks());
            System.out.println(delivery.line());
        } catch (SQLException e) {
            checks.add(Check.fail("delivery", "could not be verified: " + SqlStates.message(e)));
        }
        return r.withMetricsAndChecks(Throughput.metrics(r, groups), checks);
    }
}

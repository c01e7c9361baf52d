package dev.gauntlet.queue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.DurationConverter;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.DriverCpu;
import dev.gauntlet.core.run.Role;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.figures.Cost;
import dev.gauntlet.queue.figures.Throughput;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.Rendezvous;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.SqlBenchmark;
import dev.gauntlet.sql.observe.PostgresGauges;
import dev.gauntlet.sql.observe.WalBytes;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-queue run}: PostgreSQL as a pub/sub log or a work queue, measured end to end, delivery verified. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Pub/sub (--mode pubsub, the default): --writers publish batches into --partitions tables with "
                + "gapless offsets; --consumer-groups of --readers each read every message in order per partition.",
                "Work queue (--mode queue): --writers insert batches into one table; --readers compete for them with "
                        + "FOR UPDATE SKIP LOCKED, each message to one reader, acknowledged by --ack.",
                "Readers connect and poll before writers start. Reports write and read msg/s and MiB/s (per group "
                        + "and in total) over the measured time, write and read latency, end-to-end latency per "
                        + "message from the producer's timestamp (when its batch was due, so a throttled writer's "
                        + "queueing counts), empty polls, lag per group, and the server's table sizes, dead tuples, "
                        + "vacuum runs and WAL over time; then verifies delivery (none lost, none twice; pubsub: "
                        + "every batch the writers heard commit in the log as written). Each run starts from empty "
                        + "tables.",
                "Split between processes (--worker I/N, all with the same --start-at): worker 0 creates the tables, "
                        + "the others wait for them; each process runs its part of --writers, --readers and "
                        + "--throttle-writes. pubsub: each writes and reads its part of the partitions and verifies "
                        + "them; queue: readers compete for every process's messages, and worker 0 verifies delivery "
                        + "over all the processes' ledgers. Then report merge."},
        footer = {"", "Examples:",
                "  bench-queue run --writers 10 --partitions 4 --consumer-groups 5 --readers 4 --write-batch 100 "
                        + "--read-batch 200 --payload 1024 --throttle-writes 5000 --duration 5m --warmup 30s",
                "  bench-queue run --mode queue --ack delete --writers 10 --readers 20 --throttle-writes 5000",
                "  bench-queue run --find-max-rate --duration 30s --warmup 5s --max-write-p99 100ms",
                "  bench-queue run --duration 30m --retention consumed --drain --cost-per-hour 0.118 --storage-gb 450 "
                        + "--storage-cost-per-gb-month 0.08",
                "  bench-queue run --worker 0/2 --start-at 2026-11-25T15:00:00Z --out w0   # and --worker 1/2 "
                        + "elsewhere, then: bench-queue report merge w0 w1"})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Spec
    CommandSpec spec;

    @Mixin
    ModeOptions layout;
    @Option(names = "--writers", paramLabel = "N", defaultValue = "10", description = "Writer clients (default: ${DEFAULT-VALUE}).")
    int writers;
    @Option(names = "--readers", paramLabel = "N", defaultValue = "4",
            description = "pubsub: readers per consumer group; any number: fewer than the partitions and each serves "
                    + "several, more and the extra ones stand by. queue: competing readers in all (default: ${DEFAULT-VALUE}).")
    int readers;
    @Option(names = "--write-batch", paramLabel = "N", defaultValue = "100", description = "Messages per insert (default: ${DEFAULT-VALUE}).")
    int writeBatch;
    @Option(names = "--read-batch", paramLabel = "N", defaultValue = "200", description = "Messages per read at most (default: ${DEFAULT-VALUE}).")
    int readBatch;
    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "1024", description = "Bytes per message (default: ${DEFAULT-VALUE}).")
    int payload;
    @Option(names = "--throttle-writes", paramLabel = "MSG_PER_S", defaultValue = "0",
            description = "Writes in messages per second across all writers, open loop (batches due every "
                    + "write-batch/rate seconds); 0 (default): as fast as they go. With --find-max-rate: the first "
                    + "rate tried (default: 30%% of the raw insert rate).")
    double throttle;
    @Option(names = "--poll-interval", paramLabel = "TIME", defaultValue = "5ms", converter = DurationConverter.class,
            description = "How long a reader waits after a poll that found nothing (default: ${DEFAULT-VALUE}).")
    Duration pollInterval;
    @Option(names = "--retention", paramLabel = "POLICY", defaultValue = "none",
            description = "pubsub: none (the log keeps every message) or consumed (every --retention-every, delete the "
                    + "messages every group has read, so the log stays bounded and vacuum has dead tuples to clean) "
                    + "(default: ${DEFAULT-VALUE}).")
    String retention;
    @Option(names = "--retention-every", paramLabel = "TIME", defaultValue = "1s", converter = DurationConverter.class,
            description = "How often consumed messages are deleted (default: ${DEFAULT-VALUE}).")
    Duration retentionEvery;
    @Option(names = "--drain", paramLabel = "LIMIT", arity = "0..1", fallbackValue = "10m",
            converter = DurationConverter.class,
            description = "After the measured run, stop the writers and measure how long each group takes to read "
                    + "everything written, giving up after LIMIT (default when given without one: 10m).")
    Duration drain;
    @Option(names = "--max-write-p99", paramLabel = "TIME", defaultValue = "100ms", converter = DurationConverter.class,
            description = "--find-max-rate without --slo: the highest write p99 (from the intended start) a sustained "
                    + "rate may have, as the objective 'p99(write) <= TIME' (default: ${DEFAULT-VALUE}).")
    Duration maxWriteP99;
    @Option(names = "--max-lag", paramLabel = "TIME", defaultValue = "1s", converter = DurationConverter.class,
            description = "--find-max-rate: the most a group may be behind at the end of a step, as the age of what it "
                    + "read last, and still keep up (default: ${DEFAULT-VALUE}).")
    Duration maxLag;
    @Option(names = "--cost-per-hour", paramLabel = "DOLLARS", defaultValue = "0",
            description = "The server's price per hour: adds a cost section, per year and per MiB/s written.")
    double costPerHour;
    @Option(names = "--storage-gb", paramLabel = "GB", defaultValue = "0", description = "Provisioned disk for the cost section.")
    double storageGb;
    @Option(names = "--storage-cost-per-gb-month", paramLabel = "DOLLARS", defaultValue = "0",
            description = "The disk's price per GB-month for the cost section.")
    double storageCostPerGbMonth;

    /**
     * What the runs share: the database, the mode (with the current run's ledger), the current write rate (this
     * process's part of it), and where the processes of a split run meet (worker 0 of 1 when this one runs it all).
     */
    static final class Setup {
        final Database db;
        final Mode mode;
        final Rendezvous split;
        double throttle;

        Setup(Database db, Mode mode, double throttle, Rendezvous split) {
            this.db = db;
            this.mode = mode;
            this.throttle = throttle;
            this.split = split;
        }
    }

    /** The step at which worker 0 of a split run has created the tables. */
    static final String TABLES_CREATED = "queue tables created";

    private Mode mode;
    private WorkerShare share;
    /** This process's writers: all of --writers, or its part with --worker. */
    private int writersHere;

    @Override
    public Integer call() {
        mode = validate();
        SqlBenchmark<Setup> benchmark = SqlBenchmark.of(spec, QueueCommand.NAME, connection, options,
                        (db, plan) -> new Setup(db, mode, throttle * writersHere / writers,
                                Rendezvous.of(db.settings(), options, System.out)))
                .experiments(experiments, List.of(), "Each run started from empty tables.")
                .plan((s, plan) -> withDrain(s, plan(plan, s.throttle)))
                .beforeEachRun(this::fresh)
                .workload((s, cell) -> s.mode.workload())
                .parameters((s, cell) -> parameters(s))
                .probes(s -> List.of(new PostgresGauges(s.db.settings(), s.mode.tables()), new WalBytes(s.db.settings())))
                .finish(this::finish)
                .defaultObjectives("p99(" + Throughput.WRITE + ") <= " + DurationConverter.format(maxWriteP99));
        if (options.capacity().findMaxRate()) {
            benchmark.capacitySearch(new QueuePacing(this::plan, writeBatch, throttle, maxLag, mode.readOperations()));
        }
        return benchmark.call();
    }

    private Mode validate() {
        var parsed = spec.commandLine().getParseResult();
        options.rolesOwnClients();
        for (String core : List.of("--clients", "--rate")) {
            if (parsed.hasMatchedOption(core)) {
                throw new BadInputException(core + " does not apply: use --writers, --readers and --throttle-writes");
            }
        }
        positive("--writers", writers);
        positive("--readers", readers);
        positive("--write-batch", writeBatch);
        positive("--read-batch", readBatch);
        if (payload < 1 || payload > (1 << 30)) {
            throw new BadInputException("--payload must be 1 byte to 1 GiB (got " + payload + ")");
        }
        notNegative("--throttle-writes", throttle);
        notNegative("--cost-per-hour", costPerHour);
        notNegative("--storage-gb", storageGb);
        notNegative("--storage-cost-per-gb-month", storageCostPerGbMonth);
        if (pollInterval.isNegative()) {
            throw new BadInputException("--poll-interval must not be negative");
        }
        for (var d : List.of(java.util.Map.entry("--retention-every", retentionEvery),
                java.util.Map.entry("--max-write-p99", maxWriteP99), java.util.Map.entry("--max-lag", maxLag))) {
            if (d.getValue().isNegative() || d.getValue().isZero()) {
                throw new BadInputException(d.getKey() + " must be positive");
            }
        }
        if (drain != null && (drain.isNegative() || drain.isZero())) {
            throw new BadInputException("--drain's limit must be positive");
        }
        if (!List.of("none", "consumed").contains(retention)) {
            throw new BadInputException("--retention must be none or consumed (got '" + retention + "')");
        }
        layout.validate(List.of("--retention"));
        options.requireStartAtToSplit("worker 0 creates its tables, the others wait for them");
        share = options.share();
        writersHere = part("--writers", writers);
        int readersHere = part(layout.pubsub() ? "--readers (per consumer group)" : "--readers", readers);
        Shape shape = new Shape(writeBatch, readBatch, payload, pollInterval);
        if (layout.pubsub()) {
            WorkerShare.Range partitions = share.part(layout.partitions);
            if (partitions.size() == 0) {
                throw new BadInputException("--worker " + share + " gets none of the " + layout.partitions
                        + " partitions: each worker writes and reads partitions of its own, so give at least "
                        + share.count() + " --partitions");
            }
            return new PubSubMode(shape, layout.partitions, partitions, layout.groups, readersHere,
                    retention.equals("consumed") ? retentionEvery : null);
        }
        // Worker 0 waits for the others' ledgers as long as their runs and drains may take, and a grace period.
        Duration runLength = options.plan().length().plus(drain != null ? drain : Duration.ZERO);
        return new WorkQueueMode(shape, readersHere, layout.ackMode(), runLength);
    }

    /** This process's part of {@code total} clients of {@code option}; at least one, or one line and exit 2. */
    private int part(String option, int total) {
        int mine = share.part(total).size();
        if (mine == 0) {
            throw new BadInputException("--worker " + share + " gets none of the " + total + " " + option
                    + ": give at least " + share.count() + ", one per worker");
        }
        return mine;
    }

    private static void positive(String option, int value) {
        if (value < 1) {
            throw new BadInputException(option + " must be at least 1 (got " + value + ")");
        }
    }

    private static void notNegative(String option, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new BadInputException(option + " must be 0 or a positive number (got " + value + ")");
        }
    }

    /** The drain of the run under way (its phase's condition), or null without --drain. */
    private Drain draining;

    /** With --drain: the plan with a drain phase at its end, whose condition this run's finish reads. */
    private RunPlan withDrain(Setup s, RunPlan plan) {
        if (drain == null) {
            draining = null;
            return plan;
        }
        Drain.Drained drained = Drain.after(plan, s.db.settings(), s.mode::backlog, drain, System.out);
        draining = drained.drain();
        return drained.plan();
    }

    /** Readers first, writers once every reader has polled, and the retention client when retention is on. */
    RunPlan plan(RunPlan base, double msgPerSecond) {
        Role writerRole = (msgPerSecond > 0 ? Role.openLoop(PubSubWorkload.WRITERS, writersHere,
                msgPerSecond / writeBatch) : Role.closedLoop(PubSubWorkload.WRITERS, writersHere))
                .startingAfter(PubSubWorkload.READERS);
        List<Role> roles = new ArrayList<>(List.of(Role.closedLoop(PubSubWorkload.READERS, mode.readers()),
                writerRole));
        if (layout.pubsub() && retention.equals("consumed")) {
            roles.add(Role.closedLoop(PubSubWorkload.RETENTION, 1));
        }
        RunPlan.Builder b = base.toBuilder().roles(roles);
        if (!spec.commandLine().getParseResult().hasMatchedOption("--workers")) {
            b.workers(roles.stream().mapToInt(Role::clients).sum());
        }
        return b.build();
    }

    /**
     * Every run starts from empty tables, with a ledger of its own in the run's directory. A split run's tables are
     * created once, by worker 0; the other processes wait until it says they are (up to 10 minutes past --start-at).
     */
    private void fresh(Setup s, Cell cell, Path runDirectory) {
        Runnable create = () -> {
            try (Connection c = s.db.settings().connectForAdmin()) {
                s.mode.createTables(c);
            } catch (SQLException e) {
                throw new RunFailedException("cannot create the " + s.mode.name() + " tables: " + SqlStates.message(e), e);
            }
        };
        s.split.afterWorkerZero(TABLES_CREATED, create, "worker 0 to create the " + s.mode.name() + " tables");
        s.mode.openLedger(runDirectory);
    }

    private Map<String, Object> parameters(Setup s) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("mode", s.mode.name());
        p.put("writers", writersHere);
        p.putAll(s.mode.parameters());
        p.put("writeBatch", writeBatch);
        p.put("readBatch", readBatch);
        p.put("payloadBytes", payload);
        p.put("throttleWrites", s.throttle > 0 ? s.throttle + " msg/s" : "unthrottled");
        p.put("pollInterval", DurationConverter.format(pollInterval));
        if (drain != null) {
            p.put("drainLimit", DurationConverter.format(drain));
        }
        return p;
    }

    /** Drain (when asked), verify delivery, and add the figures: throughput, WAL per message, drain times, cost. */
    private RunResult finish(Setup s, RunResult r) {
        List<Check> checks = new ArrayList<>(r.checks());
        Metrics m = Throughput.metrics(r, s.mode.readOperations());
        if (draining != null) {
            Optional<Drain.Outcome> drained = draining.outcome();
            drained.ifPresent(d -> {
                d.addTo(m);
                System.out.println(d.line());
            });
            if (drained.isEmpty()) {
                checks.add(Check.skip("drain", "the run ended (" + r.parameters().get("stopReason")
                        + ") before its drain phase began"));
            }
        }
        try (Connection c = s.db.settings().connectForAdmin()) {
            var delivery = s.mode.verify(c, s.split);
            delivery.ifPresent(d -> checks.addAll(d.checks()));
            System.out.println(delivery.map(DeliveryChecks.Delivery::line).orElse("Delivery: verified by worker 0/"
                    + share.count() + " over every worker's ledger"));
        } catch (SQLException e) {
            checks.add(Check.fail("delivery", "could not be verified: " + SqlStates.message(e)));
        }
        long written = r.operation(Throughput.WRITE).map(o -> o.counter("messages")).orElse(0L);
        r.measuredProbe(WalBytes.NAME).filter(wal -> written > 0)
                .ifPresent(wal -> m.add("walBytesPerMessage", wal / (double) written, MetricInfo.lower()));
        long read = s.mode.readOperations().values().stream()
                .mapToLong(op -> r.operation(op).map(o -> o.counter("messages")).orElse(0L)).sum();
        r.measuredProbe(DriverCpu.NAME).filter(cpu -> written + read > 0 && r.measuredSeconds() > 0).ifPresent(cpu -> {
            m.add("driverCpuMicrosPerMessage", cpu / 1e3 / (written + read), MetricInfo.lower());
            m.add("driverCores", cpu / 1e9 / r.measuredSeconds(), MetricInfo.lower().addsUp());
        });
        double writeMiB = m.values().getOrDefault("writeMiBPerSecond", 0.0);
        System.out.printf(Locale.ROOT, "Throughput: write %,.0f msg/s (%.2f MiB/s), read %,.0f msg/s (%.2f MiB/s) "
                        + "over %.1f s measured%n", m.values().get("writeMsgPerSecond"), writeMiB,
                m.values().get("readMsgPerSecond"), m.values().get("readMiBPerSecond"), r.measuredSeconds());
        if (costPerHour > 0 || storageGb > 0) {
            Cost cost = new Cost(costPerHour, storageGb, storageCostPerGbMonth);
            cost.addTo(m, writeMiB);
            System.out.println(cost.line(writeMiB));
        }
        return r.toBuilder().metrics(m).checks(checks).build();
    }
}

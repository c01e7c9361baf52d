package dev.gauntlet.queue;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.pubsub.DeliveryLedger;
import dev.gauntlet.queue.pubsub.PubSubWorkload;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.sql.Rendezvous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --mode pubsub}: partitioned log, consumer groups, each reading everything in order per partition. Split
 * between processes ({@code --worker}), each writes and reads its own share of the partitions, so every partition's
 * readers, ledger and verification are in one process.
 */
final class PubSubMode implements Mode {

    private final Shape shape;
    private final int partitions;
    private final WorkerShare.Range mine;
    private final int groups;
    private final int readersPerGroup;
    private final Duration retentionEvery;
    private DeliveryLedger ledger;

    /**
     * @param partitions     the log's partitions
     * @param mine           those this process writes and reads
     * @param readersPerGroup this process's readers of each group
     * @param retentionEvery how often consumed messages are deleted; null: the log keeps everything
     */
    PubSubMode(Shape shape, int partitions, WorkerShare.Range mine, int groups, int readersPerGroup,
               Duration retentionEvery) {
        this.shape = shape;
        this.partitions = partitions;
        this.mine = mine;
        this.groups = groups;
        this.readersPerGroup = readersPerGroup;
        this.retentionEvery = retentionEvery;
    }

    @Override
    public String name() {
        return "pubsub";
    }

    @Override
    public void createTables(Connection c) throws SQLException {
        LogSchema.create(c, partitions, groups);
    }

    @Override
    public void openLedger(Path runDirectory) {
        if (ledger != null) {
            ledger.close();
        }
        ledger = new DeliveryLedger(groups, mine, runDirectory);
    }

    @Override
    public Workload<Connection> workload() {
        return new PubSubWorkload(mine, groups, readersPerGroup, shape.writeBatch(), shape.readBatch(),
                shape.payload(), shape.pollInterval(), ledger, retentionEvery);
    }

    @Override
    public int readers() {
        return readersPerGroup * groups;
    }

    @Override
    public Map<String, String> readOperations() {
        Map<String, String> ops = new LinkedHashMap<>();
        for (int g = 0; g < groups; g++) {
            ops.put("G" + (g + 1), PubSubWorkload.readOperation(g));
        }
        return ops;
    }

    @Override
    public Map<String, Long> backlog(Connection c) throws SQLException {
        return LogSchema.backlog(c, mine);
    }

    @Override
    public Optional<DeliveryChecks.Delivery> verify(Connection c, Rendezvous split) throws SQLException {
        return Optional.of(DeliveryChecks.run(c, ledger));
    }

    @Override
    public List<String> tables() {
        return LogSchema.TABLES;
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("partitions", partitions);
        if (mine.size() < partitions) {
            p.put("partitionsHere", mine.from() == mine.to() - 1 ? "p" + mine.from()
                    : "p" + mine.from() + "-p" + (mine.to() - 1));
        }
        p.put("consumerGroups", groups);
        p.put("readersPerGroup", readersPerGroup);
        p.put("retention", retentionEvery == null ? "none (the log keeps every message)"
                : "consumed messages deleted every " + dev.gauntlet.core.cli.DurationConverter.format(retentionEvery));
        return p;
    }
}

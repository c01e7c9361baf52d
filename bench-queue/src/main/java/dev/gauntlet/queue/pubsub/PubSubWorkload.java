package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.ClientId;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Pub/sub over the log: {@value #WRITERS} publish batches to the partitions in turn (writer {@code i} starting at
 * partition {@code i}); {@value #READERS} are spread over the consumer groups ({@code readersPerGroup} each) and
 * poll their group's partitions, each preferring its own, so any number of readers per group works: fewer than the
 * partitions and a reader serves several, more and the extra ones find every partition taken (empty polls) and
 * stand by. A reader whose poll found nothing waits {@code pollInterval} before the next.
 */
public final class PubSubWorkload implements Workload<Connection> {

    public static final String WRITERS = "writers";
    public static final String READERS = "readers";
    /** One client deleting consumed messages every {@code retentionEvery}, when retention is on. */
    public static final String RETENTION = "retention";

    private final WorkerShare.Range partitions;
    private final int groups;
    private final int readersPerGroup;
    private final int writeBatch;
    private final int readBatch;
    private final int payloadBytes;
    private final Duration pollInterval;
    private final DeliveryLedger ledger;
    private final Duration retentionEvery;

    /** Without retention: the log grows for the whole run. */
    public PubSubWorkload(int partitions, int groups, int readersPerGroup, int writeBatch, int readBatch,
                          int payloadBytes, Duration pollInterval, DeliveryLedger ledger) {
        this(new WorkerShare.Range(0, partitions), groups, readersPerGroup, writeBatch, readBatch, payloadBytes,
                pollInterval, ledger, null);
    }

    /**
     * @param partitions     the partitions this process writes and reads: all, or its share with {@code --worker}
     * @param retentionEvery how often the {@value #RETENTION} client deletes consumed messages; null: never
     */
    public PubSubWorkload(WorkerShare.Range partitions, int groups, int readersPerGroup, int writeBatch, int readBatch,
                          int payloadBytes, Duration pollInterval, DeliveryLedger ledger, Duration retentionEvery) {
        this.retentionEvery = retentionEvery;
        this.partitions = partitions;
        this.groups = groups;
        this.readersPerGroup = readersPerGroup;
        this.writeBatch = writeBatch;
        this.readBatch = readBatch;
        this.payloadBytes = payloadBytes;
        this.pollInterval = pollInterval;
        this.ledger = ledger;
    }

    /** The table of partition {@code p}: {@code log_p0}, {@code log_p1}, ... */
    public static String partitionTable(int partition) {
        return "log_p" + partition;
    }

    /** {@code read-g1}, the operation of group 1's readers. */
    public static String readOperation(int group) {
        return Consume.name(group);
    }

    public static final String WRITE = Publish.NAME;

    @Override
    public List<String> observedLatencies() {
        return List.of("endToEnd");
    }

    @Override
    public List<String> operationNames() {
        List<String> names = new ArrayList<>(List.of(Publish.NAME));
        for (int g = 0; g < groups; g++) {
            names.add(Consume.name(g));
        }
        if (retentionEvery != null) {
            names.add(Retain.NAME);
        }
        return names;
    }

    @Override
    public ClientScript<Connection> client(ClientId client, SplittableRandom random) {
        if (WRITERS.equals(client.role())) {
            byte[] payload = new byte[payloadBytes];
            random.nextBytes(payload);
            List<Step<Connection>> steps = new ArrayList<>();
            for (int p = 0; p < partitions.size(); p++) {
                steps.add(Step.now(new Publish(partitions.from() + (client.index() + p) % partitions.size(),
                        writeBatch, payload, ledger.writes())));
            }
            int[] next = {0};
            return () -> steps.get(next[0]++ % steps.size());
        }
        if (RETENTION.equals(client.role())) {
            Step<Connection> retain = Step.after(retentionEvery, new Retain(partitions, ledger.writes()));
            return () -> retain;
        }
        int group = client.index() / readersPerGroup;
        Consume consume = new Consume(group, client.index() % readersPerGroup % partitions.size(), readersPerGroup,
                partitions, readBatch, ledger);
        Step<Connection> now = Step.now(consume);
        Step<Connection> later = Step.after(pollInterval, consume);
        return () -> consume.lastWasEmpty() ? later : now;
    }

    public int groups() {
        return groups;
    }
}

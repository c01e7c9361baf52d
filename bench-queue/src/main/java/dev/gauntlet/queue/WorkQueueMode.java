package dev.gauntlet.queue;

import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.LedgerStore;
import dev.gauntlet.queue.workqueue.WorkQueueWorkload;
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
 * {@code --mode queue}: one table, competing readers, each message to one of them, acknowledged by {@code --ack}. Split
 * between processes ({@code --worker}), every reader competes for every process's messages, so delivery is verified
 * once, by worker 0, over all the processes' ledgers gathered in the database.
 */
final class WorkQueueMode implements Mode {

    private final Shape shape;
    private final int readers;
    /** The step at which a split run's processes have stored their ledgers. */
    static final String LEDGERS_STORED = "queue ledgers stored";

    private final AckMode ack;
    private final Duration runLength;
    private AckLedger ledger;

    /**
     * @param readers       this process's readers
     * @param runLength     how long the run (and drain) lasts: worker 0 of a split run waits for the other
     *                      processes' ledgers that long past --start-at, and a grace period
     */
    WorkQueueMode(Shape shape, int readers, AckMode ack, Duration runLength) {
        this.shape = shape;
        this.readers = readers;
        this.ack = ack;
        this.runLength = runLength;
    }

    @Override
    public String name() {
        return "queue";
    }

    @Override
    public void createTables(Connection c) throws SQLException {
        QueueSchema.create(c, ack);
    }

    @Override
    public void openLedger(Path runDirectory) {
        if (ledger != null) {
            ledger.close();
        }
        ledger = new AckLedger(runDirectory);
    }

    @Override
    public Workload<Connection> workload() {
        return new WorkQueueWorkload(shape.writeBatch(), shape.readBatch(), shape.payload(), shape.pollInterval(), ack,
                ledger);
    }

    @Override
    public int readers() {
        return readers;
    }

    @Override
    public Map<String, String> readOperations() {
        return Map.of("", WorkQueueWorkload.READ);
    }

    @Override
    public Map<String, Long> backlog(Connection c) throws SQLException {
        return QueueSchema.backlog(c, ack);
    }

    @Override
    public Optional<DeliveryChecks.Delivery> verify(Connection c, Rendezvous split) throws SQLException {
        if (split.share().whole()) {
            return Optional.of(QueueDeliveryChecks.run(c, ledger, ack));
        }
        LedgerStore.store(c, split.share().index(), ledger);
        if (!split.allArrived(LEDGERS_STORED, runLength, "every worker's ledger to verify delivery")) {
            return Optional.empty();
        }
        return Optional.of(QueueDeliveryChecks.runOverStored(c, ack));
    }

    @Override
    public List<String> tables() {
        return QueueSchema.TABLES;
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("readers", readers);
        p.put("ack", ack.label());
        return p;
    }
}

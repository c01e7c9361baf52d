package dev.gauntlet.queue;

import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.queue.checks.QueueDeliveryChecks;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.queue.workqueue.AckLedger;
import dev.gauntlet.queue.workqueue.AckMode;
import dev.gauntlet.queue.workqueue.WorkQueueWorkload;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --mode queue}: one table, competing readers, each message to one of them, acknowledged by {@code --ack}. */
final class WorkQueueMode implements Mode {

    private final Shape shape;
    private final int readers;
    private final AckMode ack;
    private AckLedger ledger;

    WorkQueueMode(Shape shape, int readers, AckMode ack) {
        this.shape = shape;
        this.readers = readers;
        this.ack = ack;
    }

    @Override
    public String name() {
        return "queue";
    }

    @Override
    public void fresh(Connection c) throws SQLException {
        QueueSchema.create(c, ack);
        ledger = new AckLedger();
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
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT count(*) FROM queue_messages"
                + (ack == AckMode.FLAG ? " WHERE acked_at IS NULL" : ""))) {
            rs.next();
            return Map.of("queue", rs.getLong(1));
        }
    }

    @Override
    public DeliveryChecks.Delivery verify(Connection c) throws SQLException {
        return QueueDeliveryChecks.run(c, ledger, ack);
    }

    @Override
    public List<String> tables() {
        return List.of("queue\\_messages", "queue\\_archive");
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("readers", readers);
        p.put("ack", ack.label());
        return p;
    }
}

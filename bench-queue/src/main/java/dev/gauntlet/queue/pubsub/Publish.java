package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.queue.schema.LogSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * A writer's batch: one statement reserves {@code batch} offsets from the partition's tip and inserts the messages,
 * so offsets have no gaps. Each message carries the time the batch was due ({@link Attempt#intendedEpochNanos}):
 * a throttled writer's queueing is in the end-to-end latency.
 */
final class Publish implements Operation<Connection> {

    static final String NAME = "write";

    private final int partition;
    private final int batch;
    private final byte[] payload;
    private final String sql;

    Publish(int partition, int batch, byte[] payload) {
        this.partition = partition;
        this.batch = batch;
        this.payload = payload;
        this.sql = "WITH r AS (UPDATE log_tip SET next_offset = next_offset + ? WHERE partition = ? "
                + "RETURNING next_offset - ? AS first) INSERT INTO " + LogSchema.table(partition)
                + " (msg_offset, produced_at, payload) SELECT r.first + g, ?, ? FROM r, generate_series(0, ? - 1) AS g";
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, batch);
            p.setInt(2, partition);
            p.setInt(3, batch);
            p.setLong(4, attempt.intendedEpochNanos());
            p.setBytes(5, payload);
            p.setInt(6, batch);
            int inserted = p.executeUpdate();
            if (inserted != batch) {
                throw new IllegalStateException("partition " + partition + " took " + inserted + " of " + batch
                        + " messages: its tip row is missing (run init)");
            }
        }
        attempt.count("messages", batch);
        attempt.count("bytes", (long) batch * payload.length);
    }
}

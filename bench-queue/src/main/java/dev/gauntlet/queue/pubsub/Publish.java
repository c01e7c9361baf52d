package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * A writer's batch: one statement reserves {@code batch} offsets from the partition's tip and inserts the messages,
 * so offsets have no gaps, and returns the first offset. Each message carries the time the batch was due
 * ({@link Attempt#intendedEpochNanos}: a throttled writer's queueing is in the end-to-end latency) and the batch's
 * producer sequence, which the {@link WriterLedger} records with the batch's offsets once the commit is heard (as
 * uncertain when its outcome never comes back).
 */
final class Publish implements Operation<Connection> {

    static final String NAME = "write";

    private final int partition;
    private final int batch;
    private final byte[] payload;
    private final WriterLedger ledger;
    private final String sql;

    Publish(int partition, int batch, byte[] payload, WriterLedger ledger) {
        this.partition = partition;
        this.batch = batch;
        this.payload = payload;
        this.ledger = ledger;
        this.sql = "WITH r AS (UPDATE log_tip SET next_offset = next_offset + ? WHERE partition = ? "
                + "RETURNING next_offset - ? AS first), w AS (INSERT INTO " + PubSubWorkload.partitionTable(partition)
                + " (msg_offset, produced_at, producer_seq, payload) SELECT r.first + g, ?, ?, ? FROM r, "
                + "generate_series(0, ? - 1) AS g RETURNING 1) SELECT r.first, (SELECT count(*) FROM w) FROM r";
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        long seq = ledger.nextSequence();
        long first;
        long inserted;
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, batch);
            p.setInt(2, partition);
            p.setInt(3, batch);
            p.setLong(4, attempt.intendedEpochNanos());
            p.setLong(5, seq);
            p.setBytes(6, payload);
            p.setInt(7, batch);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("partition " + partition + " has no tip row (run init)");
                }
                first = rs.getLong(1);
                inserted = rs.getLong(2);
            }
        }
        if (inserted != batch) {
            throw new IllegalStateException("partition " + partition + " took " + inserted + " of " + batch
                    + " messages");
        }
        attempt.count("messages", batch);
        attempt.count("bytes", (long) batch * payload.length);
        attempt.afterCommit(() -> ledger.committed(seq, partition, first, batch));
        attempt.ifCommitUnknown(() -> ledger.maybeCommitted(seq, partition, first, batch));
    }
}

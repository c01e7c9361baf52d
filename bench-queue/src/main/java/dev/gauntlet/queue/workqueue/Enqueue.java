package dev.gauntlet.queue.workqueue;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * A writer's batch: one statement inserts {@code batch} messages, the identity column numbering them, and returns
 * their ids for the ledger once the insert commits, or as uncertain when the commit's outcome never comes back. Each
 * message carries the time the batch was due ({@link Attempt#intendedEpochNanos}): a throttled writer's queueing is in
 * the end-to-end latency.
 */
final class Enqueue implements Operation<Connection> {

    static final String NAME = "write";

    private static final String SQL = "INSERT INTO queue_messages (produced_at, payload) "
            + "SELECT ?, ? FROM generate_series(1, ?) RETURNING id";

    private final int batch;
    private final byte[] payload;
    private final AckLedger ledger;

    Enqueue(int batch, byte[] payload, AckLedger ledger) {
        this.batch = batch;
        this.payload = payload;
        this.ledger = ledger;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        long[] ids = new long[batch];
        int n = 0;
        try (PreparedStatement p = c.prepareStatement(SQL)) {
            p.setLong(1, attempt.intendedEpochNanos());
            p.setBytes(2, payload);
            p.setInt(3, batch);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    if (n == batch) {
                        throw new IllegalStateException("an insert of " + batch + " messages returned more ids");
                    }
                    ids[n++] = rs.getLong(1);
                }
            }
        }
        if (n != batch) {
            throw new IllegalStateException("an insert of " + batch + " messages returned " + n + " ids");
        }
        attempt.count("messages", batch);
        attempt.count("bytes", (long) batch * payload.length);
        attempt.afterCommit(() -> ledger.produced(ids));
        attempt.ifCommitUnknown(() -> ledger.maybeProduced(ids));
    }
}

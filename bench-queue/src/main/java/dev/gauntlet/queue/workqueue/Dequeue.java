package dev.gauntlet.queue.workqueue;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;

/**
 * A competing consumer's poll, one transaction: claim up to {@code batch} of the oldest messages no other reader
 * holds ({@code FOR UPDATE SKIP LOCKED}, so readers never wait for each other), then acknowledge exactly those with
 * the ack mode's statement. Claim and acknowledgement commit together: a reader that dies mid-poll releases its
 * claim and another takes the messages, so delivery is at least once. Order is only roughly by id: a message a
 * slow writer commits late, or one another reader holds, is passed over and taken later.
 *
 * <p>Each message's end-to-end latency is from its producer timestamp to this commit; the lag gauge is the age of
 * the oldest message claimed; a poll that claims nothing is counted.
 */
final class Dequeue implements Operation<Connection> {

    static final String NAME = "read";

    private final int batch;
    private final AckMode mode;
    private final AckLedger ledger;
    private final String claimSql;
    private boolean empty;

    Dequeue(int batch, AckMode mode, AckLedger ledger) {
        this.batch = batch;
        this.mode = mode;
        this.ledger = ledger;
        this.claimSql = "SELECT id, produced_at, payload FROM queue_messages" + mode.claimFilter()
                + " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED";
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Whether the last poll claimed nothing (the reader then waits before polling again). */
    boolean lastWasEmpty() {
        return empty;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        empty = true;
        long[] ids = new long[batch];
        int n = 0;
        long bytes = 0;
        long oldest = Long.MAX_VALUE;
        try (PreparedStatement claim = c.prepareStatement(claimSql)) {
            claim.setInt(1, batch);
            try (ResultSet rs = claim.executeQuery()) {
                while (rs.next()) {
                    ids[n++] = rs.getLong(1);
                    long producedAt = rs.getLong(2);
                    bytes += rs.getBytes(3).length;
                    attempt.latencySince("endToEnd", producedAt);
                    oldest = Math.min(oldest, producedAt);
                }
            }
        }
        if (n == 0) {
            // Nothing unclaimed: the queue is empty, or every message is held by another reader.
            attempt.count("emptyPolls", 1);
            return;
        }
        long[] claimed = n == batch ? ids : Arrays.copyOf(ids, n);
        try (PreparedStatement ack = c.prepareStatement(mode.ackSql())) {
            ack.setArray(1, IdArrays.of(c, claimed));
            int touched = ack.executeUpdate();
            if (touched != n) {
                throw new IllegalStateException(mode.label() + " acknowledged " + touched + " of the " + n
                        + " messages this reader claimed and holds locked: the queue changed under it");
            }
        }
        empty = false;
        attempt.count("messages", n);
        attempt.count("bytes", bytes);
        attempt.gaugeMillisSince("lagMillis", oldest);
        attempt.afterCommit(() -> ledger.acked(claimed));
        attempt.ifCommitUnknown(() -> ledger.maybeAcked(claimed));
    }
}

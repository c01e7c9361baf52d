package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/**
 * A reader's poll, one transaction: claim a partition of its group whose offset row no other reader holds
 * ({@code FOR UPDATE SKIP LOCKED}, starting from the reader's turn), read up to {@code batch} messages from the
 * group's offset up to the partition's tip, and advance the offset. Strict order per partition, at least once.
 * Each message's end-to-end latency is from its producer timestamp to this commit; an empty poll is counted.
 */
final class Consume implements Operation<Connection> {

    private final int group;
    private final int first;
    private final int stride;
    private long polls;
    private final WorkerShare.Range partitions;
    private final int batch;
    private final DeliveryLedger ledger;
    private final String name;
    private final String lagMessages;
    private final String lagMillis;
    private boolean empty;

    /**
     * @param first      the partition this reader tries first, counted from the first of {@code partitions}
     * @param stride     how far its first choice moves each poll (its group's reader count), so a reader serving
     *                   several partitions takes them in turn while the group's readers keep to different ones
     * @param partitions the partitions its process reads (all, or its share with {@code --worker})
     */
    Consume(int group, int first, int stride, WorkerShare.Range partitions, int batch, DeliveryLedger ledger) {
        this.group = group;
        this.first = first;
        this.stride = stride;
        this.partitions = partitions;
        this.batch = batch;
        this.ledger = ledger;
        this.name = name(group);
        this.lagMessages = "lagMessages-g" + (group + 1);
        this.lagMillis = "lagMillis-g" + (group + 1);
    }

    /** {@code read-g1}: groups are numbered from 1 for people. */
    static String name(int group) {
        return "read-g" + (group + 1);
    }

    @Override
    public String name() {
        return name;
    }

    /** Whether the last poll found nothing to read (the reader then waits before polling again). */
    boolean lastWasEmpty() {
        return empty;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        empty = true;
        polls++;
        int partition;
        long from;
        int size = partitions.size();
        try (PreparedStatement claim = c.prepareStatement("SELECT partition, next_offset FROM consumer_offsets "
                + "WHERE grp = ? AND partition >= ? AND partition < ? ORDER BY (partition - ? + ? - ?) % ? "
                + "FOR UPDATE SKIP LOCKED LIMIT 1")) {
            claim.setInt(1, group);
            claim.setInt(2, partitions.from());
            claim.setInt(3, partitions.to());
            claim.setInt(4, partitions.from());
            claim.setInt(5, size);
            claim.setInt(6, (int) ((first + polls * stride) % size));
            claim.setInt(7, size);
            try (ResultSet rs = claim.executeQuery()) {
                if (!rs.next()) {
                    attempt.count("emptyPolls", 1); // every partition is being read by another reader of the group
                    return;
                }
                partition = rs.getInt(1);
                from = rs.getLong(2);
            }
        }
        long tip;
        try (PreparedStatement t = c.prepareStatement("SELECT next_offset FROM log_tip WHERE partition = ?")) {
            t.setInt(1, partition);
            try (ResultSet rs = t.executeQuery()) {
                rs.next();
                tip = rs.getLong(1);
            }
        }
        long to = Math.min(tip, from + batch);
        if (to == from) {
            attempt.count("emptyPolls", 1);
            attempt.gauge(lagMessages, 0);
            return;
        }
        long messages = 0;
        long bytes = 0;
        long runStart = -1;
        long expected = from;
        long newest = 0;
        try (PreparedStatement r = c.prepareStatement("SELECT msg_offset, produced_at, payload FROM "
                + PubSubWorkload.partitionTable(partition)
                + " WHERE msg_offset >= ? AND msg_offset < ? ORDER BY msg_offset")) {
            r.setLong(1, from);
            r.setLong(2, to);
            try (ResultSet rs = r.executeQuery()) {
                while (rs.next()) {
                    long offset = rs.getLong(1);
                    long producedAt = rs.getLong(2);
                    bytes += rs.getBytes(3).length;
                    messages++;
                    attempt.latencySince("endToEnd", producedAt);
                    newest = producedAt;
                    if (offset != expected) {
                        // A hole in the log: record what was read on each side, so the ledger counts it lost.
                        recordRun(attempt, partition, runStart, expected);
                        runStart = offset;
                    } else if (runStart < 0) {
                        runStart = offset;
                    }
                    expected = offset + 1;
                }
            }
        }
        recordRun(attempt, partition, runStart, expected);
        empty = false;
        try (PreparedStatement advance = c.prepareStatement(
                "UPDATE consumer_offsets SET next_offset = ? WHERE grp = ? AND partition = ?")) {
            advance.setLong(1, to);
            advance.setInt(2, group);
            advance.setInt(3, partition);
            advance.executeUpdate();
        }
        attempt.count("messages", messages);
        attempt.count("bytes", bytes);
        attempt.gauge(lagMessages, tip - to);
        attempt.gaugeMillisSince(lagMillis, newest);
    }

    private void recordRun(Attempt attempt, int partition, long start, long end) {
        if (start >= 0 && end > start) {
            attempt.afterCommit(() -> ledger.read(group, partition, start, end));
            attempt.ifCommitUnknown(() -> ledger.maybeRead(group, partition, start, end));
        }
    }
}

package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * Retention by deleting consumed rows ({@code --retention consumed}): for each partition, the messages every group has
 * read (below the least committed offset) are deleted and the partition's first retained offset moves up, in one
 * transaction. What it deleted goes to the {@link WriterLedger}, batch by batch (producer sequence, offsets, count),
 * so the batches the writers heard commit can be verified after the log no longer holds them. Whole-partition drops by time would need the log partitioned by time as well; deleting consumed rows
 * keeps one table per partition and leaves vacuum the dead tuples to clean, which is what a long run should show.
 */
final class Retain implements Operation<Connection> {

    static final String NAME = "retain";

    private final WorkerShare.Range partitions;
    private final WriterLedger ledger;

    Retain(WorkerShare.Range partitions, WriterLedger ledger) {
        this.partitions = partitions;
        this.ledger = ledger;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Connection c, Attempt attempt) throws Exception {
        long deleted = 0;
        for (int p = partitions.from(); p < partitions.to(); p++) {
            long low;
            try (PreparedStatement q = c.prepareStatement("UPDATE log_retention r SET first_offset = x.low FROM "
                    + "(SELECT min(next_offset) AS low FROM consumer_offsets WHERE partition = ?) x "
                    + "WHERE r.partition = ? AND r.first_offset < x.low RETURNING x.low")) {
                q.setInt(1, p);
                q.setInt(2, p);
                try (var rs = q.executeQuery()) {
                    if (!rs.next()) {
                        continue; // nothing new consumed by every group
                    }
                    low = rs.getLong(1);
                }
            }
            FoundBatches swept;
            try (PreparedStatement d = c.prepareStatement("WITH d AS (DELETE FROM " + PubSubWorkload.partitionTable(p)
                    + " WHERE msg_offset < ? RETURNING msg_offset, producer_seq) " + FoundBatches.groupedFrom("d"))) {
                d.setLong(1, low);
                try (var rs = d.executeQuery()) {
                    swept = FoundBatches.read(rs);
                }
            }
            deleted += swept.messages();
            int partition = p;
            attempt.afterCommit(() -> ledger.retained(partition, swept));
            attempt.ifCommitUnknown(() -> ledger.retained(partition, swept));
        }
        attempt.count("deleted", deleted);
    }
}

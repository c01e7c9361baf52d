package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.sql.LedgerCopy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The writers' ledger against the log, in the database: the ledger's batches and what retention deleted are copied
 * into temporary tables beside the log, and what the log holds and retention deleted is grouped by producer sequence
 * there, so nothing of the run's length is held in the driver's heap.
 *
 * <p>What each partition was seen to hold is, each message once: the retention runs that took effect, then the log.
 * A run whose messages a later run or the log saw again did not take effect (its commit did not land, and the next run
 * deleted them again): it counts only if every later one starts at or past its end. Each batch seen is checked
 * against the batch its sequence names: the same partition, within its offsets. What is not is foreign; what is adds
 * to its batch's count, which must come to the batch's size. Of a driver that died, batches under sequences its
 * ledger never recorded, no more than its writers had in flight, were written by commits it never heard back.
 */
final class WrittenBatches {

    private static final String BATCHES = "queue_writer_batches";
    private static final String SWEPT = "queue_writer_swept";
    private static final String SEEN = "queue_writer_seen";
    private static final String FOUND = "queue_writer_found";
    /** The log as it is now, after every retention run. */
    private static final int NOW = Integer.MAX_VALUE;

    private WrittenBatches() {
    }

    /** @param inFlight batches a driver that died may have written unheard, of at most {@code batchSize} messages */
    static WriterLedger.Tally tally(Connection c, WriterLedger ledger, WorkerShare.Range partitions, int inFlight,
                                    int batchSize) throws SQLException {
        try (Statement s = c.createStatement()) {
            drop(s);
            s.execute("CREATE TEMPORARY TABLE " + BATCHES + " (seq bigint, state smallint, part int, first bigint, "
                    + "n int)");
            s.execute("CREATE TEMPORARY TABLE " + SWEPT + " (part int, sweep int, seq bigint, lowest bigint, "
                    + "highest bigint, messages bigint)");
            LedgerCopy.into(c, BATCHES, ledger::writeBatches);
            LedgerCopy.into(c, SWEPT, ledger::writeSwept);
            s.execute("CREATE TEMPORARY TABLE " + SEEN + " AS " + seen(partitions));
            s.execute("ANALYZE " + SEEN);
            // Judged: a batch heard to commit, or one whose outcome was lost and of which some is there (its commit
            // went through, so all of it must be); one of which none is there may not have landed: nothing says.
            s.execute("CREATE TEMPORARY TABLE " + FOUND + " AS SELECT b.*, coalesce(f.found, 0) AS found, "
                    + "b.state = " + WriterLedger.COMMITTED + " OR coalesce(f.found, 0) > 0 AS judged "
                    + "FROM " + BATCHES + " b LEFT JOIN (SELECT seq, sum(messages) AS found FROM " + SEEN
                    + " WHERE ok GROUP BY seq) f USING (seq)");
            s.execute("ANALYZE " + FOUND);
            try {
                return tally(s, unheard(s, inFlight, batchSize));
            } finally {
                drop(s);
            }
        }
    }

    /**
     * Every batch partition of {@code partitions} was seen to hold, from the retention runs that took effect and the
     * log now, each with whether it is where its sequence's batch was written ({@code ok}).
     */
    private static String seen(WorkerShare.Range partitions) {
        List<String> now = new ArrayList<>();
        for (int p = partitions.from(); p < partitions.to(); p++) {
            now.add("SELECT " + p + " AS part, " + NOW + " AS sweep, g.* FROM ("
                    + FoundBatches.groupedFrom(PubSubWorkload.partitionTable(p)) + ") g");
        }
        return "WITH every AS (SELECT part, sweep, seq, lowest, highest, messages FROM " + SWEPT + " WHERE part >= "
                + partitions.from() + " AND part < " + partitions.to() + (now.isEmpty() ? "" : " UNION ALL ")
                + String.join(" UNION ALL ", now) + "), "
                + "runs AS (SELECT part, sweep, min(lowest) AS low, max(highest) + 1 AS high FROM every "
                + "GROUP BY part, sweep), "
                + "kept AS (SELECT part, sweep FROM (SELECT part, sweep, high, min(low) OVER (PARTITION BY part "
                + "ORDER BY sweep ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS later FROM runs) r "
                + "WHERE later IS NULL OR high <= later) "
                + "SELECT e.part, e.sweep, e.seq, e.lowest, e.highest, e.messages, coalesce(b.part = e.part "
                + "AND e.lowest >= b.first AND e.highest < b.first + b.n, false) AS ok, b.seq IS NOT NULL AS known "
                + "FROM every e JOIN kept USING (part, sweep) LEFT JOIN " + BATCHES + " b ON b.seq = e.seq";
    }

    /**
     * {batches, messages} seen under sequences the ledger never recorded, when they are no more than a driver that
     * died had in flight ({@code inFlight} batches of at most {@code batchSize}): written by commits it never heard
     * back. {0, 0} otherwise: then they are messages no writer wrote.
     */
    private static long[] unheard(Statement s, int inFlight, int batchSize) throws SQLException {
        if (inFlight == 0) {
            return new long[] {0, 0};
        }
        try (ResultSet rs = s.executeQuery("SELECT count(*), coalesce(sum(m), 0), coalesce(max(m), 0) FROM "
                + "(SELECT seq, sum(messages) AS m FROM " + SEEN + " WHERE NOT known GROUP BY seq) u")) {
            rs.next();
            return rs.getLong(1) <= inFlight && rs.getLong(3) <= batchSize
                    ? new long[] {rs.getLong(1), rs.getLong(2)} : new long[] {0, 0};
        }
    }

    /** @param unheard {batches, messages} written by commits in flight when the driver died ({@link #unheard}) */
    private static WriterLedger.Tally tally(Statement s, long[] unheard) throws SQLException {
        long foreign;
        String firstForeign = null;
        try (ResultSet rs = s.executeQuery("SELECT part, lowest, highest, seq, sum(messages) OVER () FROM " + SEEN
                + " WHERE NOT ok" + (unheard[0] > 0 ? " AND known" : "") + " ORDER BY part, sweep, lowest LIMIT 1")) {
            foreign = rs.next() ? rs.getLong(5) : 0;
            if (foreign > 0) {
                firstForeign = String.format(Locale.ROOT, "partition %d offsets %d-%d (producer seq %d)",
                        rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT part, first, n, seq, found FROM " + FOUND
                + " WHERE judged AND found > n ORDER BY seq LIMIT 1")) {
            if (rs.next() && firstForeign == null) {
                firstForeign = String.format(Locale.ROOT, "partition %d offsets %d-%d (producer seq %d), seen %,d "
                        + "times for %,d written", rs.getInt(1), rs.getLong(2), rs.getLong(2) + rs.getInt(3) - 1,
                        rs.getLong(4), rs.getLong(5), rs.getInt(3));
            }
        }
        List<WriterLedger.LostBatch> named = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT part, first, n, seq, n - found FROM " + FOUND
                + " WHERE judged AND found < n ORDER BY seq LIMIT " + WriterLedger.NAMED)) {
            while (rs.next()) {
                named.add(new WriterLedger.LostBatch(rs.getInt(1), rs.getLong(2), rs.getInt(3), rs.getLong(4),
                        rs.getLong(5)));
            }
        }
        String committed = "state = " + WriterLedger.COMMITTED;
        String uncertain = "state = " + WriterLedger.UNCERTAIN;
        try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE " + committed + "), "
                + "coalesce(sum(n) FILTER (WHERE " + committed + "), 0), "
                + "count(*) FILTER (WHERE judged AND found < n), "
                + "coalesce(sum(n - found) FILTER (WHERE judged AND found < n), 0), "
                + "coalesce(sum(found - n) FILTER (WHERE judged AND found > n), 0), "
                + "count(*) FILTER (WHERE " + uncertain + "), coalesce(sum(n) FILTER (WHERE " + uncertain + "), 0), "
                + "count(*) FILTER (WHERE " + uncertain + " AND found > 0) FROM " + FOUND)) {
            rs.next();
            return new WriterLedger.Tally(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), named,
                    foreign + rs.getLong(5), firstForeign, rs.getLong(6) + unheard[0], rs.getLong(7) + unheard[1],
                    rs.getLong(8) + unheard[0]);
        }
    }

    private static void drop(Statement s) throws SQLException {
        for (String table : List.of(FOUND, SEEN, SWEPT, BATCHES)) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}

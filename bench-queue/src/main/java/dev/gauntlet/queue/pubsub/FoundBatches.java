package dev.gauntlet.queue.pubsub;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * What one retention run deleted from a partition, batch by batch: for each producer sequence there, its lowest and
 * highest offset and how many messages carry it. One row per batch, not per message, so a run that deletes a million
 * messages in batches of 100 is 10,000 entries, kept in primitive arrays until the {@link WriterLedger} writes them to
 * its file.
 */
public final class FoundBatches {

    private long[] seqs = new long[16];
    private long[] lowest = new long[16];
    private long[] highest = new long[16];
    private int[] messages = new int[16];
    private int size;
    private long total;

    /**
     * The query that groups {@code rows} (a table or a CTE with {@code msg_offset} and {@code producer_seq}) by
     * producer sequence, the columns {@link #read} takes.
     */
    static String groupedFrom(String rows) {
        return "SELECT producer_seq, min(msg_offset), max(msg_offset), count(*) FROM " + rows + " GROUP BY producer_seq";
    }

    /** The rows {@link #groupedFrom} selects. */
    static FoundBatches read(ResultSet rs) throws SQLException {
        FoundBatches found = new FoundBatches();
        while (rs.next()) {
            found.add(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getInt(4));
        }
        return found;
    }

    private void add(long seq, long low, long high, int count) {
        if (size == seqs.length) {
            int grown = size * 2;
            seqs = Arrays.copyOf(seqs, grown);
            lowest = Arrays.copyOf(lowest, grown);
            highest = Arrays.copyOf(highest, grown);
            messages = Arrays.copyOf(messages, grown);
        }
        seqs[size] = seq;
        lowest[size] = low;
        highest[size] = high;
        messages[size] = count;
        size++;
        total += count;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Messages found, over every batch. */
    public long messages() {
        return total;
    }

    long seq(int i) {
        return seqs[i];
    }

    long lowest(int i) {
        return lowest[i];
    }

    long highest(int i) {
        return highest[i];
    }

    int messages(int i) {
        return messages[i];
    }
}

package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.WorkerShare;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What each consumer group committed to having read, per partition, as offset ranges recorded after each read
 * commits (in whatever order the readers' commits are seen). At the end the ranges of a group's partition, sorted,
 * must tile {@code 0..committed} exactly: a hole is a lost message, an overlap a message delivered twice. Beside
 * them, what the writers heard commit ({@link #writes}), for the log itself to be checked against. A ledger covers
 * the partitions its process writes and reads (all of them, or its share with {@code --worker}).
 */
public final class DeliveryLedger {

    /**
     * One group's partition at the end: lost, delivered twice, read by a transaction whose commit's outcome never
     * reached the reader (the connection broke during COMMIT; the next read starting past them says it did commit),
     * and how far the ranges reach.
     */
    public record Tally(int group, int partition, long lost, long duplicates, long uncertain, long reached) {
    }

    private final WorkerShare.Range partitions;
    private final WriterLedger writes = new WriterLedger();
    private final List<List<List<long[]>>> ranges = new ArrayList<>();
    private final List<List<List<long[]>>> uncertain = new ArrayList<>();

    /** A ledger of partitions {@code 0..partitions-1}. */
    public DeliveryLedger(int groups, int partitions) {
        this(groups, new WorkerShare.Range(0, partitions));
    }

    public DeliveryLedger(int groups, WorkerShare.Range partitions) {
        this.partitions = partitions;
        for (int g = 0; g < groups; g++) {
            List<List<long[]>> group = new ArrayList<>();
            List<List<long[]>> unsure = new ArrayList<>();
            for (int p = 0; p < partitions.size(); p++) {
                group.add(new ArrayList<>());
                unsure.add(new ArrayList<>());
            }
            ranges.add(group);
            uncertain.add(unsure);
        }
    }

    /** Group {@code group} read {@code from..to} of {@code partition}, and the commit's outcome never came back. */
    public void maybeRead(int group, int partition, long from, long to) {
        List<long[]> list = uncertain.get(group).get(partition - partitions.from());
        synchronized (list) {
            list.add(new long[] {from, to});
        }
    }

    /** Group {@code group} read offsets {@code from} (inclusive) to {@code to} (exclusive) of {@code partition}. */
    public void read(int group, int partition, long from, long to) {
        List<long[]> list = ranges.get(group).get(partition - partitions.from());
        synchronized (list) {
            list.add(new long[] {from, to});
        }
    }

    /** What this process's writers heard commit (and the batches whose commit's outcome they never heard). */
    public WriterLedger writes() {
        return writes;
    }

    public int groups() {
        return ranges.size();
    }

    /** The partitions this ledger covers. */
    public WorkerShare.Range partitions() {
        return partitions;
    }

    /** The tally of one group's partition so far. */
    public Tally tally(int group, int partition) {
        List<long[]> sorted = sorted(ranges.get(group).get(partition - partitions.from()));
        List<long[]> unsure = sorted(uncertain.get(group).get(partition - partitions.from()));
        long expected = 0;
        long lost = 0;
        long duplicates = 0;
        long uncertainCount = 0;
        for (long[] r : sorted) {
            if (r[0] > expected) {
                long covered = covered(unsure, expected, r[0]);
                uncertainCount += covered;
                lost += r[0] - expected - covered;
            } else if (r[0] < expected) {
                duplicates += Math.min(r[1], expected) - r[0];
            }
            expected = Math.max(expected, r[1]);
        }
        // An uncertain read at the very end, committed after all, carries the reach on.
        for (long[] u : unsure) {
            if (u[0] == expected) {
                uncertainCount += u[1] - u[0];
                expected = u[1];
            }
        }
        return new Tally(group, partition, lost, duplicates, uncertainCount, expected);
    }

    private static List<long[]> sorted(List<long[]> list) {
        List<long[]> copy;
        synchronized (list) {
            copy = new ArrayList<>(list);
        }
        copy.sort(Comparator.comparingLong(r -> r[0]));
        return copy;
    }

    /** How many offsets of {@code from..to} the uncertain ranges cover. */
    private static long covered(List<long[]> unsure, long from, long to) {
        long covered = 0;
        long at = from;
        for (long[] u : unsure) {
            long a = Math.max(u[0], at);
            long b = Math.min(u[1], to);
            if (b > a) {
                covered += b - a;
                at = b;
            }
        }
        return covered;
    }

    /** Every group's partitions. */
    public List<Tally> tallies() {
        List<Tally> all = new ArrayList<>();
        for (int g = 0; g < groups(); g++) {
            for (int p = partitions.from(); p < partitions.to(); p++) {
                all.add(tally(g, p));
            }
        }
        return all;
    }
}

package dev.gauntlet.queue.pubsub;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What each consumer group committed to having read, per partition, as offset ranges recorded after each read
 * commits (in whatever order the readers' commits are seen). At the end the ranges of a group's partition, sorted,
 * must tile {@code 0..committed} exactly: a hole is a lost message, an overlap a message delivered twice.
 */
public final class DeliveryLedger {

    /** One group's partition at the end: lost, delivered twice, and how far the ranges reach. */
    public record Tally(int group, int partition, long lost, long duplicates, long reached) {
    }

    private final List<List<List<long[]>>> ranges = new ArrayList<>();

    public DeliveryLedger(int groups, int partitions) {
        for (int g = 0; g < groups; g++) {
            List<List<long[]>> group = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                group.add(new ArrayList<>());
            }
            ranges.add(group);
        }
    }

    /** Group {@code group} read offsets {@code from} (inclusive) to {@code to} (exclusive) of {@code partition}. */
    public void read(int group, int partition, long from, long to) {
        List<long[]> list = ranges.get(group).get(partition);
        synchronized (list) {
            list.add(new long[] {from, to});
        }
    }

    public int groups() {
        return ranges.size();
    }

    public int partitions() {
        return ranges.isEmpty() ? 0 : ranges.get(0).size();
    }

    /** The tally of one group's partition so far. */
    public Tally tally(int group, int partition) {
        List<long[]> sorted;
        List<long[]> list = ranges.get(group).get(partition);
        synchronized (list) {
            sorted = new ArrayList<>(list);
        }
        sorted.sort(Comparator.comparingLong(r -> r[0]));
        long expected = 0;
        long lost = 0;
        long duplicates = 0;
        for (long[] r : sorted) {
            if (r[0] > expected) {
                lost += r[0] - expected;
            } else if (r[0] < expected) {
                duplicates += Math.min(r[1], expected) - r[0];
            }
            expected = Math.max(expected, r[1]);
        }
        return new Tally(group, partition, lost, duplicates, expected);
    }

    /** Every group's partitions. */
    public List<Tally> tallies() {
        List<Tally> all = new ArrayList<>();
        for (int g = 0; g < groups(); g++) {
            for (int p = 0; p < partitions(); p++) {
                all.add(tally(g, p));
            }
        }
        return all;
    }
}

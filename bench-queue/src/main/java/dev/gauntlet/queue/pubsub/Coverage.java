package dev.gauntlet.queue.pubsub;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The offsets of one group's partition that its reads covered, as the ranges merged so far: reads of a partition
 * follow one another, so they merge into one range, and only a hole (or a read whose commit was seen ahead of the one
 * before it) keeps another. Beside them, the reads whose commit's outcome never came back, as they were recorded:
 * as few as the commits whose connection broke.
 */
final class Coverage {

    /** Disjoint ranges, by where they start, to where they end (exclusive); touching ones are merged. */
    private final TreeMap<Long, Long> covered = new TreeMap<>();
    /** Offsets read, counting each read: more than {@link #covered} holds by the duplicates. */
    private long offsetsRead;
    private final List<long[]> uncertain = new ArrayList<>();

    /** Offsets {@code from} (inclusive) to {@code to} (exclusive) read. */
    void read(long from, long to) {
        if (to <= from) {
            return;
        }
        offsetsRead += to - from;
        long start = from;
        long end = to;
        Map.Entry<Long, Long> before = covered.floorEntry(start);
        if (before != null && before.getValue() >= start) {
            start = before.getKey();
            end = Math.max(end, before.getValue());
            covered.remove(before.getKey());
        }
        for (Map.Entry<Long, Long> next = covered.ceilingEntry(start); next != null && next.getKey() <= end;
             next = covered.ceilingEntry(start)) {
            end = Math.max(end, next.getValue());
            covered.remove(next.getKey());
        }
        covered.put(start, end);
    }

    /** Offsets {@code from} to {@code to} read by a commit whose outcome never came back. */
    void maybeRead(long from, long to) {
        uncertain.add(new long[] {from, to});
    }

    /**
     * The holes before the furthest offset read are lost, but for what uncertain reads cover (their commits went
     * through: a read after them starts past them); overlaps are duplicates; an uncertain read starting where the
     * reads end carries them on.
     */
    DeliveryLedger.Tally tally(int group, int partition) {
        List<long[]> unsure = new ArrayList<>(uncertain);
        unsure.sort(Comparator.comparingLong(r -> r[0]));
        long expected = 0;
        long lost = 0;
        long uncertainCount = 0;
        long union = 0;
        for (Map.Entry<Long, Long> range : covered.entrySet()) {
            long start = range.getKey();
            if (start > expected) {
                long maybe = covered(unsure, expected, start);
                uncertainCount += maybe;
                lost += start - expected - maybe;
            }
            union += range.getValue() - start;
            expected = range.getValue();
        }
        for (long[] u : unsure) {
            if (u[0] == expected) {
                uncertainCount += u[1] - u[0];
                expected = u[1];
            }
        }
        return new DeliveryLedger.Tally(group, partition, lost, offsetsRead - union, uncertainCount, expected);
    }

    /** How many offsets of {@code from..to} the uncertain ranges (sorted by start) cover. */
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
}

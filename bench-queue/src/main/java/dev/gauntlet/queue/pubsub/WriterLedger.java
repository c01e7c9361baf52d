package dev.gauntlet.queue.pubsub;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the writers heard commit: per batch, its partition, first offset and count, under the producer sequence every
 * message of the batch carries ({@code producer_seq}). The readers' ledger alone cannot see a batch that was
 * acknowledged and then lost together with its tip update (a failover to a standby that missed it, a restore): the
 * next batch takes its offsets and the log stays gapless. At the end, what sits at each batch's offsets must carry
 * its sequence, all of it.
 *
 * <p>Sequences are handed out by {@link #nextSequence} (1, 2, ...; a retried attempt takes a new one, so a sequence
 * is never written twice) and the ledger is indexed by them: a partition, an offset, a count and a state per
 * sequence in primitive arrays, 17 bytes a batch. A batch whose commit's outcome never came back is recorded as
 * uncertain and expected neither way. Retention deletes messages every group has read during the run; it reports
 * what it deleted ({@link #retained}) so they can be verified too. Thread safe.
 */
public final class WriterLedger {

    /** How many lost batches a tally names; the rest are counted. */
    public static final int NAMED = 10;

    private static final byte COMMITTED = 1;
    private static final byte UNCERTAIN = 2;

    /** A batch the writers heard commit (or whose commit's outcome was lost but that landed) short in the log. */
    public record LostBatch(int partition, long first, int count, long seq, long missing) {

        /** {@code partition 0 offsets 190-199 (10 messages, producer seq 38)}, with how many are missing if not all. */
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "partition %d offsets %d-%d (%,d messages, producer seq %d%s)", partition,
                    first, first + count - 1, count, seq, missing == count ? ""
                            : String.format(Locale.ROOT, ", %,d of them missing", missing));
        }
    }

    /**
     * The ledger against the log.
     *
     * @param batches          batches the writers heard commit
     * @param messages         their messages
     * @param lostBatches      of them, and of the uncertain ones that landed, those not all at their offsets
     * @param lostMessages     the messages missing from those
     * @param named            the first {@link #NAMED} of them, in the order they were written
     * @param foreign          messages at offsets no batch of this ledger was written to with their sequence, and
     *                         those seen more often than written
     * @param firstForeign     where the first of those is, or null
     * @param uncertainBatches batches whose commit's outcome never reached the writer
     * @param uncertainMessages their messages
     * @param landed           of them, those the log holds (their commit went through)
     */
    public record Tally(long batches, long messages, long lostBatches, long lostMessages, List<LostBatch> named,
                        long foreign, String firstForeign, long uncertainBatches, long uncertainMessages, long landed) {
    }

    /** What one retention run deleted from a partition, in the order the runs ended. */
    private record Sweep(int partition, FoundBatches deleted) {
    }

    private final AtomicLong sequence = new AtomicLong();
    private byte[] state = new byte[1024];
    private int[] partition = new int[1024];
    private long[] first = new long[1024];
    private int[] count = new int[1024];
    private long highest;
    private final List<Sweep> sweeps = new ArrayList<>();

    /** The producer sequence of a batch about to be written. */
    public long nextSequence() {
        return sequence.incrementAndGet();
    }

    /** Batch {@code seq} committed: {@code count} messages from {@code first} in {@code partition}. */
    public void committed(long seq, int partition, long first, int count) {
        record(seq, COMMITTED, partition, first, count);
    }

    /** Batch {@code seq} was written and its commit sent, and the outcome never came back. */
    public void maybeCommitted(long seq, int partition, long first, int count) {
        record(seq, UNCERTAIN, partition, first, count);
    }

    /**
     * Retention deleted {@code deleted} from {@code partition} (its commit went through, or its outcome was lost:
     * a deletion that did not take effect leaves the messages for the next one, or the log, to find again).
     */
    public synchronized void retained(int partition, FoundBatches deleted) {
        if (!deleted.isEmpty()) {
            sweeps.add(new Sweep(partition, deleted));
        }
    }

    private synchronized void record(long seq, byte kind, int p, long from, int n) {
        if (seq >= state.length) {
            int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(seq + 1, 2L * state.length));
            state = Arrays.copyOf(state, grown);
            partition = Arrays.copyOf(partition, grown);
            first = Arrays.copyOf(first, grown);
            count = Arrays.copyOf(count, grown);
        }
        int i = (int) seq;
        state[i] = kind;
        partition[i] = p;
        first[i] = from;
        count[i] = n;
        highest = Math.max(highest, seq);
    }

    /**
     * The ledger against {@code log} (what each partition holds now) and what retention deleted on the way. Of
     * retention runs that saw the same messages (one whose commit did not go through, and the next), only the last
     * counts; so does the log over a run whose messages it still holds.
     */
    public synchronized Tally tally(Map<Integer, FoundBatches> log) {
        int slots = (int) highest + 1;
        int[] found = new int[slots];
        long foreign = 0;
        String firstForeign = null;
        for (var p : log.entrySet()) {
            for (FoundBatches seen : seenIn(p.getKey(), p.getValue())) {
                for (int i = 0; i < seen.size(); i++) {
                    long seq = seen.seq(i);
                    int s = (int) seq;
                    if (seq > 0 && seq < slots && state[s] != 0 && partition[s] == p.getKey()
                            && seen.lowest(i) >= first[s] && seen.highest(i) < first[s] + count[s]) {
                        found[s] += seen.messages(i);
                    } else {
                        foreign += seen.messages(i);
                        if (firstForeign == null) {
                            firstForeign = String.format(Locale.ROOT, "partition %d offsets %d-%d (producer seq %d)",
                                    p.getKey(), seen.lowest(i), seen.highest(i), seq);
                        }
                    }
                }
            }
        }
        long batches = 0;
        long messages = 0;
        long lostBatches = 0;
        long lostMessages = 0;
        List<LostBatch> named = new ArrayList<>();
        long uncertainBatches = 0;
        long uncertainMessages = 0;
        long landed = 0;
        for (int s = 1; s < slots; s++) {
            if (state[s] == COMMITTED) {
                batches++;
                messages += count[s];
            } else if (state[s] == UNCERTAIN) {
                uncertainBatches++;
                uncertainMessages += count[s];
                if (found[s] == 0) {
                    continue; // did not land, or landed and all of it was lost: nothing says which
                }
                landed++; // some of it is there: its commit went through, and all of it must be
            } else {
                continue;
            }
            if (found[s] > count[s]) {
                foreign += found[s] - count[s];
                if (firstForeign == null) {
                    firstForeign = String.format(Locale.ROOT, "partition %d offsets %d-%d (producer seq %d), seen %,d "
                            + "times for %,d written", partition[s], first[s], first[s] + count[s] - 1, s, found[s],
                            count[s]);
                }
            } else if (found[s] < count[s]) {
                lostBatches++;
                lostMessages += count[s] - found[s];
                if (named.size() < NAMED) {
                    named.add(new LostBatch(partition[s], first[s], count[s], s, count[s] - found[s]));
                }
            }
        }
        return new Tally(batches, messages, lostBatches, lostMessages, named, foreign, firstForeign, uncertainBatches,
                uncertainMessages, landed);
    }

    /**
     * What partition {@code p} was seen to hold, each message once: the runs of retention that took effect (a run
     * whose messages a later run or the log saw again did not), then the log.
     */
    private List<FoundBatches> seenIn(int p, FoundBatches now) {
        List<FoundBatches> kept = new ArrayList<>();
        for (Sweep sweep : sweeps) {
            if (sweep.partition() == p) {
                dropOverlapping(kept, sweep.deleted().from());
                kept.add(sweep.deleted());
            }
        }
        if (!now.isEmpty()) {
            dropOverlapping(kept, now.from());
            kept.add(now);
        }
        return kept;
    }

    /** Drops the last of {@code kept} while they reach {@code from} or past: seen again, so never deleted. */
    private static void dropOverlapping(List<FoundBatches> kept, long from) {
        while (!kept.isEmpty() && kept.get(kept.size() - 1).to() > from) {
            kept.remove(kept.size() - 1);
        }
    }
}

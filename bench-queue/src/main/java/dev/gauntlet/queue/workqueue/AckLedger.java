package dev.gauntlet.queue.workqueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the writers committed to having produced and the readers to having acknowledged, as message ids recorded
 * after each commit. In a work queue each message is for one reader only, so at the end every produced id must be
 * acknowledged exactly once or still wait in the queue; the {@link Tally} sets the two lists side by side.
 *
 * <p>A commit whose outcome never came back (the connection broke during COMMIT) is recorded apart, as ids that may
 * have been produced or acknowledged: verification settles them against the database ({@link #unsettledAcks},
 * {@link #unsettledWrites}) and records those that took effect.
 *
 * <p>Ids go into fixed chunks of {@code long[]} (8 bytes an id, no boxing: a 5-minute run at 5,000 msg/s is 1.5 M ids,
 * 12 MB a side) and are sorted once, at the tally. Thread safe: writers and readers record from any worker.
 */
public final class AckLedger {

    /**
     * The ledger at the end.
     *
     * @param produced         distinct ids produced
     * @param acknowledgements acknowledgements recorded, a redelivered message counting each time
     * @param acked            distinct ids acknowledged, sorted (those never produced included)
     * @param duplicates       ids acknowledged more than once
     * @param firstDuplicate   the lowest of them, or -1
     * @param phantoms         ids acknowledged but never produced
     * @param firstPhantom     the lowest of them, or -1
     * @param unacked          ids produced and never acknowledged, sorted: to look up in the queue
     * @param reissued         ids two committed inserts were given: the first insert was lost with the state of
     *                         the id sequence (a failover to a standby that missed both), and its message with it
     * @param firstReissued    the lowest of them, or -1
     */
    public record Tally(long produced, long acknowledgements, long[] acked, long duplicates, long firstDuplicate,
                        long phantoms, long firstPhantom, long[] unacked, long reissued, long firstReissued) {
    }

    private final Ids produced = new Ids();
    private final Ids acked = new Ids();
    private final Ids maybeProduced = new Ids();
    private final Ids maybeAcked = new Ids();

    /** A writer committed messages {@code ids}. */
    public void produced(long[] ids) {
        produced.add(ids);
    }

    /**
     * A writer sent the commit of its insert of {@code ids} and the outcome never came back (the connection broke
     * during COMMIT); verification asks the database whether it took effect.
     */
    public void maybeProduced(long[] ids) {
        maybeProduced.add(ids);
    }

    /**
     * A reader sent the commit of its acknowledgement of {@code ids} and the outcome never came back (the connection
     * broke during COMMIT); verification asks the database whether it took effect.
     */
    public void maybeAcked(long[] ids) {
        maybeAcked.add(ids);
    }

    /** The ids whose insert's outcome is unknown, sorted, as recorded. */
    public long[] uncertainWrites() {
        return maybeProduced.sorted();
    }

    /** The ids whose acknowledgement's outcome is unknown, sorted, as recorded (an id once per reader unsure of it). */
    public long[] uncertainAcks() {
        return maybeAcked.sorted();
    }

    /**
     * The ids whose acknowledgement's outcome is unknown and that no committed acknowledgement covers, sorted, each
     * once: those the database has to settle. An id another reader is known to have acknowledged is that reader's: a
     * message is acknowledged once, by the reader holding it, so the acknowledgement whose outcome was lost did not
     * take effect (the message went back to the queue and the other reader took it). Of several readers unsure of
     * the same id, at most one acknowledged it.
     */
    public long[] unsettledAcks() {
        return distinctMinus(maybeAcked.sorted(), acked.sorted());
    }

    /** The ids whose insert's outcome is unknown and that no committed insert produced, sorted, each once. */
    public long[] unsettledWrites() {
        return distinctMinus(maybeProduced.sorted(), produced.sorted());
    }

    /** The distinct values of {@code sorted} that are not in {@code known} (sorted too). */
    private static long[] distinctMinus(long[] sorted, long[] known) {
        long[] out = new long[sorted.length];
        int n = 0;
        int k = 0;
        for (int i = 0; i < sorted.length; i++) {
            long id = sorted[i];
            if (n > 0 && out[n - 1] == id) {
                continue;
            }
            while (k < known.length && known[k] < id) {
                k++;
            }
            if (k < known.length && known[k] == id) {
                continue;
            }
            out[n++] = id;
        }
        return Arrays.copyOf(out, n);
    }

    /** The ids produced, sorted. */
    public long[] produced() {
        return produced.sorted();
    }

    /** The ids acknowledged, sorted, a redelivered one as often as it was acknowledged. */
    public long[] acked() {
        return acked.sorted();
    }

    /** A reader committed its acknowledgement of messages {@code ids}. */
    public void acked(long[] ids) {
        acked.add(ids);
    }

    /** The tally so far: both lists sorted and walked side by side once. */
    public Tally tally() {
        long[] p = produced.sorted();
        long[] a = acked.sorted();
        long[] distinctAcked = new long[a.length];
        long[] unacked = new long[p.length];
        int nAcked = 0;
        int nUnacked = 0;
        long distinctProduced = 0;
        long duplicates = 0;
        long firstDuplicate = -1;
        long phantoms = 0;
        long firstPhantom = -1;
        long reissued = 0;
        long firstReissued = -1;
        int i = 0;
        int j = 0;
        while (i < p.length || j < a.length) {
            long id = Math.min(i < p.length ? p[i] : Long.MAX_VALUE, j < a.length ? a[j] : Long.MAX_VALUE);
            int inserts = 0;
            while (i < p.length && p[i] == id) {
                inserts++;
                i++;
            }
            boolean wasProduced = inserts > 0;
            if (inserts > 1 && reissued++ == 0) {
                firstReissued = id; // an identity is never handed out twice unless what took it first was lost
            }
            int times = 0;
            while (j < a.length && a[j] == id) {
                times++;
                j++;
            }
            if (wasProduced) {
                distinctProduced++;
                if (times == 0) {
                    unacked[nUnacked++] = id;
                }
            }
            if (times > 0) {
                distinctAcked[nAcked++] = id;
                if (!wasProduced && phantoms++ == 0) {
                    firstPhantom = id;
                }
                if (times > 1 && duplicates++ == 0) {
                    firstDuplicate = id;
                }
            }
        }
        return new Tally(distinctProduced, a.length, Arrays.copyOf(distinctAcked, nAcked), duplicates, firstDuplicate,
                phantoms, firstPhantom, Arrays.copyOf(unacked, nUnacked), reissued, firstReissued);
    }

    /** An append-only list of ids in fixed chunks: no copying as it grows, one array when sorted. */
    private static final class Ids {
        private static final int CHUNK = 1 << 16;

        private final List<long[]> full = new ArrayList<>();
        private long[] current = new long[CHUNK];
        private int used;

        synchronized void add(long[] ids) {
            int from = 0;
            while (from < ids.length) {
                if (used == CHUNK) {
                    full.add(current);
                    current = new long[CHUNK];
                    used = 0;
                }
                int n = Math.min(ids.length - from, CHUNK - used);
                System.arraycopy(ids, from, current, used, n);
                used += n;
                from += n;
            }
        }

        long[] sorted() {
            long[] all;
            synchronized (this) {
                all = new long[full.size() * CHUNK + used];
                int at = 0;
                for (long[] chunk : full) {
                    System.arraycopy(chunk, 0, all, at, CHUNK);
                    at += CHUNK;
                }
                System.arraycopy(current, 0, all, at, used);
            }
            Arrays.sort(all);
            return all;
        }
    }
}

package dev.gauntlet.trainevents;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The ids of every event the driver saw committed (and those whose add was in flight when a connection broke, as
 * uncertain), kept as pairs of longs: a million events cost 16 MB, not a million objects. Checks copy it into the
 * database and compare it with what the tables hold.
 */
public final class EventLedger {

    private long[] ids = new long[2 * 4096];
    private int size;
    private long[] uncertain = new long[16];
    private int uncertainSize;

    /** Events whose add committed. */
    public synchronized void added(UUID[] batch, int n) {
        ids = ensure(ids, 2 * (size + n));
        for (int i = 0; i < n; i++) {
            ids[2 * size] = batch[i].getMostSignificantBits();
            ids[2 * size + 1] = batch[i].getLeastSignificantBits();
            size++;
        }
    }

    /** Events whose add was sent but whose commit's outcome never came back: present or absent are both right. */
    public synchronized void maybeAdded(UUID[] batch, int n) {
        uncertain = ensure(uncertain, 2 * (uncertainSize + n));
        for (int i = 0; i < n; i++) {
            uncertain[2 * uncertainSize] = batch[i].getMostSignificantBits();
            uncertain[2 * uncertainSize + 1] = batch[i].getLeastSignificantBits();
            uncertainSize++;
        }
    }

    public synchronized long size() {
        return size;
    }

    public synchronized long uncertainSize() {
        return uncertainSize;
    }

    /**
     * Writes {@code <prefix>id<TAB>certain} lines, the text format of {@code COPY te_ledger (id, certain) FROM STDIN}
     * (with a prefix such as {@code "3\t"}, of a table with one more column before them).
     */
    synchronized void copyTo(Writer out, String prefix) throws IOException {
        write(out, prefix, ids, size, "\tt\n");
        write(out, prefix, uncertain, uncertainSize, "\tf\n");
    }

    private static void write(Writer out, String prefix, long[] pairs, int n, String suffix) throws IOException {
        for (int i = 0; i < n; i++) {
            out.write(prefix);
            out.write(new UUID(pairs[2 * i], pairs[2 * i + 1]).toString());
            out.write(suffix);
        }
    }

    private static long[] ensure(long[] a, int needed) {
        return needed <= a.length ? a : Arrays.copyOf(a, Math.max(needed, a.length * 2));
    }
}

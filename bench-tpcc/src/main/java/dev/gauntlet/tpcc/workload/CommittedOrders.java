package dev.gauntlet.tpcc.workload;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The keys (warehouse, district, order id) of every New-Order the driver heard commit in a run, so that after the run
 * each can be looked for in the database: a committed order that is not there was lost (by a failover to a standby
 * that had not received it, say). Orders whose commit was ambiguous (the connection broke during COMMIT) are only
 * counted: they may or may not be there. Thread-safe; one New-Order costs one long.
 */
public final class CommittedOrders {

    private long[] keys = new long[1 << 16];
    private int size;
    private long uncertain;

    public synchronized void committed(int warehouse, int district, int orderId) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        keys[size++] = key(warehouse, district, orderId);
    }

    synchronized void uncertain() {
        uncertain++;
    }

    /** Forgets every key: a new run starts. */
    public synchronized void clear() {
        keys = new long[1 << 16];
        size = 0;
        uncertain = 0;
    }

    public synchronized int size() {
        return size;
    }

    public synchronized long uncertainCount() {
        return uncertain;
    }

    /** Each key, packed (see {@link #warehouse}, {@link #district}, {@link #orderId}). */
    public synchronized void forEach(LongConsumer action) {
        for (int i = 0; i < size; i++) {
            action.accept(keys[i]);
        }
    }

    static long key(int warehouse, int district, int orderId) {
        return (long) warehouse << 36 | (long) district << 32 | (orderId & 0xFFFFFFFFL);
    }

    public static int warehouse(long key) {
        return (int) (key >>> 36);
    }

    public static int district(long key) {
        return (int) (key >>> 32 & 0xF);
    }

    public static int orderId(long key) {
        return (int) key;
    }
}

package dev.gauntlet.tpcc.workload;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every New-Order the driver heard commit in a run, each as what identifies that order and not just its key: the
 * (warehouse, district, order id) it was given, its customer, its line count and the entry time the driver chose
 * and stored with it ({@link #entryTime()}, unique per driver process). After the run each is looked for in the
 * database: a key that is absent, or whose row is another order, is a lost order. The key alone cannot tell: the
 * order id comes from {@code d_next_o_id}, which the same New-Order bumps, so a failover that loses an order loses
 * the bump too and the district's next New-Order takes the same id within seconds.
 *
 * <p>Orders whose commit was ambiguous (the connection broke during COMMIT) are only counted: they may or may not
 * be there. Thread-safe; one New-Order costs 20 bytes.
 */
public final class CommittedOrders {

    /** The last entry time handed out, in microseconds of the local date-time since 1970-01-01T00:00. */
    private static final AtomicLong LAST_ENTRY = new AtomicLong();

    private long[] keys = new long[1 << 16];
    private long[] entries = new long[1 << 16];
    private int[] identities = new int[1 << 16];
    private int size;
    private long uncertain;

    /** One order as the driver heard it commit. */
    public record Order(int warehouse, int district, int orderId, int customer, int lines, LocalDateTime entered) {

        /** warehouse/district/order, as the check lists it. */
        public String key() {
            return warehouse + "/" + district + "/" + orderId;
        }
    }

    /**
     * An entry time for a New-Order to store in {@code o_entry_d}: the local time now, in microseconds (what a
     * PostgreSQL timestamp keeps), never the same twice in this process, so that an order's row can be told from
     * another order that later took its key.
     */
    public static LocalDateTime entryTime() {
        LocalDateTime now = LocalDateTime.now(ZoneId.systemDefault());
        long micros = micros(now);
        long taken = LAST_ENTRY.accumulateAndGet(micros, (last, wanted) -> Math.max(last + 1, wanted));
        return dateTime(taken);
    }

    public void committed(Order o) {
        if (o.customer() < 0 || o.customer() >= 1 << 27 || o.lines() < 0 || o.lines() > 15) {
            throw new IllegalArgumentException("customer " + o.customer() + " or line count " + o.lines()
                    + " out of range");
        }
        long key = key(o.warehouse(), o.district(), o.orderId());
        long entry = micros(o.entered());
        synchronized (this) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, keys.length * 2);
                entries = Arrays.copyOf(entries, entries.length * 2);
                identities = Arrays.copyOf(identities, identities.length * 2);
            }
            keys[size] = key;
            entries[size] = entry;
            identities[size] = o.customer() << 4 | o.lines();
            size++;
        }
    }

    synchronized void uncertain() {
        uncertain++;
    }

    /** Forgets every order: a new run starts. */
    public synchronized void clear() {
        keys = new long[1 << 16];
        entries = new long[1 << 16];
        identities = new int[1 << 16];
        size = 0;
        uncertain = 0;
    }

    public synchronized int size() {
        return size;
    }

    public synchronized long uncertainCount() {
        return uncertain;
    }

    /** Each order heard to commit, in the order they were heard. */
    public synchronized void forEach(java.util.function.Consumer<Order> action) {
        for (int i = 0; i < size; i++) {
            long k = keys[i];
            action.accept(new Order((int) (k >>> 36), (int) (k >>> 32 & 0xF), (int) k, identities[i] >>> 4,
                    identities[i] & 0xF, dateTime(entries[i])));
        }
    }

    private static long key(int warehouse, int district, int orderId) {
        return (long) warehouse << 36 | (long) district << 32 | (orderId & 0xFFFFFFFFL);
    }

    private static long micros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1_000;
    }

    private static LocalDateTime dateTime(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}

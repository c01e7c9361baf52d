package dev.gauntlet.tpcc.workload;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import dev.gauntlet.core.result.LedgerFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * be there. The ledger is a {@link LedgerFile} ({@value #FILE} in the run's directory, 24 bytes an order, one write
 * per order), so it holds a 12-hour run's 62.6M orders in no heap and survives a driver killed mid-run: {@link #read}
 * takes back what a dead run left. Thread-safe.
 */
public final class CommittedOrders implements AutoCloseable {

    /** The ledger's file in a run's directory. */
    public static final String FILE = "committed-orders.ledger";

    /** One record: kind, line count, two spare bytes, customer, key (warehouse, district, order), entry time. */
    static final int RECORD_BYTES = 24;
    private static final byte COMMITTED = 1;
    private static final byte UNCERTAIN = 2;

    /** The last entry time handed out, in microseconds of the local date-time since 1970-01-01T00:00. */
    private static final AtomicLong LAST_ENTRY = new AtomicLong();

    /** Where orders are written; null for a ledger read back from a run's directory. */
    private LedgerFile ledger;
    private Path file;
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong uncertain = new AtomicLong();

    /** One order as the driver heard it commit. */
    public record Order(int warehouse, int district, int orderId, int customer, int lines, LocalDateTime entered) {

        /** warehouse/district/order, as the check lists it. */
        public String key() {
            return warehouse + "/" + district + "/" + orderId;
        }
    }

    /** A ledger in a temporary file until a run gives it its directory ({@link #restartIn}). */
    public CommittedOrders() {
        this.ledger = LedgerFile.temporary("orders", RECORD_BYTES);
        this.file = ledger.file();
    }

    private CommittedOrders(Path file, long committed, long uncertain) {
        this.file = file;
        this.committed.set(committed);
        this.uncertain.set(uncertain);
    }

    /**
     * The ledger a run left in {@code dir} (whole records; a last one cut short by a killed driver left out), to be
     * checked after the fact; null when the directory holds none.
     */
    public static CommittedOrders read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        long[] kinds = new long[UNCERTAIN + 1];
        LedgerFile.forEach(file, RECORD_BYTES, b -> kinds[b.get(0)]++);
        return new CommittedOrders(file, kinds[COMMITTED], kinds[UNCERTAIN]);
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
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES);
        b.put(COMMITTED).put((byte) o.lines()).putShort((short) 0).putInt(o.customer())
                .putLong(key(o.warehouse(), o.district(), o.orderId())).putLong(micros(o.entered())).flip();
        ledger().append(b);
        committed.incrementAndGet();
    }

    void uncertain() {
        ByteBuffer b = ByteBuffer.allocate(RECORD_BYTES);
        b.put(UNCERTAIN).position(RECORD_BYTES).flip();
        ledger().append(b);
        uncertain.incrementAndGet();
    }

    /** Forgets every order: a new run starts, its ledger in {@code dir}. */
    public synchronized void restartIn(Path dir) {
        close();
        ledger = LedgerFile.create(dir.resolve(FILE), RECORD_BYTES);
        file = ledger.file();
        committed.set(0);
        uncertain.set(0);
    }

    /** The ledger's file. */
    public synchronized Path file() {
        return file;
    }

    /** Orders heard to commit. */
    public long size() {
        return committed.get();
    }

    public long uncertainCount() {
        return uncertain.get();
    }

    /** What is done with each order read back; may throw what its work throws. */
    @FunctionalInterface
    public interface Each<E extends Exception> {
        void accept(Order order) throws E;
    }

    /** Each order heard to commit, in the order they were heard, read back from the file. */
    public <E extends Exception> void forEach(Each<E> action) throws E {
        LedgerFile.forEach(file(), RECORD_BYTES, b -> {
            if (b.get(0) == COMMITTED) {
                long k = b.getLong(8);
                action.accept(new Order((int) (k >>> 36), (int) (k >>> 32 & 0xF), (int) k, b.getInt(4),
                        b.get(1), dateTime(b.getLong(16))));
            }
        });
    }

    @Override
    public synchronized void close() {
        if (ledger != null) {
            ledger.close();
        }
    }

    private synchronized LedgerFile ledger() {
        if (ledger == null) {
            throw new IllegalStateException("a ledger read back from " + file + " takes no more orders");
        }
        return ledger;
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

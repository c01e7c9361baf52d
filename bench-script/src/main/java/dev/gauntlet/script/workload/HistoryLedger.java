package dev.gauntlet.script.workload;

import dev.gauntlet.core.result.LedgerFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The built-in writing scripts' transactions the driver heard commit (tpcb-like and simple-update: each inserts one
 * row into {@code pgbench_history}), as the values of that row: aid, tid, bid, delta. On disk in the run's directory
 * ({@value #FILE}), one 32-byte record per commit, so a check can look for every one of them in the table.
 */
public final class HistoryLedger implements AutoCloseable {

    public static final String FILE = "history.ledger";
    public static final int RECORD_BYTES = 32;

    private final LedgerFile file;
    private final java.util.concurrent.atomic.AtomicLong size = new java.util.concurrent.atomic.AtomicLong();

    private HistoryLedger(LedgerFile file) {
        this.file = file;
    }

    /** A new ledger in {@code runDirectory}. */
    public static HistoryLedger in(Path runDirectory) {
        return new HistoryLedger(LedgerFile.create(runDirectory.resolve(FILE), RECORD_BYTES));
    }

    /** One commit heard: the history row its transaction inserted. */
    public void committed(long aid, long tid, long bid, long delta) {
        ByteBuffer b = file.buffer(1);
        b.putLong(aid).putLong(tid).putLong(bid).putLong(delta).flip();
        file.append(b);
        size.incrementAndGet();
    }

    /** Commits recorded so far. */
    public long size() {
        return size.get();
    }

    public Path file() {
        return file.file();
    }

    @Override
    public void close() {
        file.close();
    }

    /** What one record holds. */
    public record Row(long aid, long tid, long bid, long delta) {
    }

    /** Each record of a ledger file, in order. */
    public static <E extends Exception> void forEach(Path file, LedgerFile.Each<E> each) throws E {
        LedgerFile.forEach(file, RECORD_BYTES, each);
    }

    /** The row a record read back holds. */
    public static Row row(ByteBuffer record) {
        return new Row(record.getLong(), record.getLong(), record.getLong(), record.getLong());
    }
}

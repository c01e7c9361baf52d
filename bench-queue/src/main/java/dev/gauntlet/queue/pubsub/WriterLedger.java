package dev.gauntlet.queue.pubsub;

import dev.gauntlet.core.result.LedgerFile;
import dev.gauntlet.core.result.WorkerShare;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the writers heard commit: per batch, its partition, first offset and count, under the producer sequence every
 * message of the batch carries ({@code producer_seq}). The readers' ledger alone cannot see a batch that was
 * acknowledged and then lost together with its tip update (a failover to a standby that missed it, a restore): the
 * next batch takes its offsets and the log stays gapless. At the end, what sits at each batch's offsets must carry
 * its sequence, all of it.
 *
 * <p>Sequences are handed out by {@link #nextSequence} (1, 2, ...; a retried attempt takes a new one, so a sequence
 * is never written twice). A batch whose commit's outcome never came back is recorded as uncertain and expected
 * neither way. Retention deletes messages every group has read during the run; it reports what it deleted
 * ({@link #retained}) so they can be verified too.
 *
 * <p>The ledger is two {@link LedgerFile}s in the run's directory, written as the run goes and never held in the
 * heap: {@value #FILE}, a {@value #BATCH_BYTES}-byte record per batch (kind, partition, count, sequence, first
 * offset; one write per batch), and {@value #RETENTION_FILE}, a {@value #SWEPT_BYTES}-byte record per batch a
 * retention run deleted (kind, partition, the run's number, messages, sequence, lowest and highest offset; one write
 * per run). The check streams both into the database and compares them with the log there ({@link #tally}). Thread
 * safe.
 */
public final class WriterLedger implements AutoCloseable {

    /** The batches' file in a run's directory. */
    public static final String FILE = "writer.ledger";
    /** What retention deleted, in a run's directory. */
    public static final String RETENTION_FILE = "retention.ledger";

    /** How many lost batches a tally names; the rest are counted. */
    public static final int NAMED = 10;

    static final int BATCH_BYTES = 25;
    static final int SWEPT_BYTES = 37;
    static final byte COMMITTED = 1;
    static final byte UNCERTAIN = 2;
    private static final byte SWEPT = 3;

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

    private final AtomicLong sequence = new AtomicLong();
    /** Where batches and sweeps are written; null for a ledger read back from a run's directory. */
    private final LedgerFile batches;
    private final LedgerFile swept;
    private final Path batchesFile;
    private final Path sweptFile;
    /** Retention runs recorded, numbering them in the order they ended. Guarded by {@code this}. */
    private int sweeps;

    private WriterLedger(LedgerFile batches, LedgerFile swept, Path batchesFile, Path sweptFile) {
        this.batches = batches;
        this.swept = swept;
        this.batchesFile = batchesFile;
        this.sweptFile = sweptFile;
    }

    /** A new ledger in {@code dir} (replacing one there), or in temporary files when {@code dir} is null. */
    static WriterLedger create(Path dir) {
        LedgerFile b = dir == null ? LedgerFile.temporary("writer", BATCH_BYTES)
                : LedgerFile.create(dir.resolve(FILE), BATCH_BYTES);
        LedgerFile s = dir == null ? LedgerFile.temporary("retention", SWEPT_BYTES)
                : LedgerFile.create(dir.resolve(RETENTION_FILE), SWEPT_BYTES);
        return new WriterLedger(b, s, b.file(), s.file());
    }

    /** The ledger a run left in {@code dir}, to be checked after the fact; it takes no more batches. */
    static WriterLedger read(Path dir) {
        return new WriterLedger(null, null, dir.resolve(FILE), dir.resolve(RETENTION_FILE));
    }

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

    private void record(long seq, byte kind, int partition, long first, int count) {
        ByteBuffer b = ByteBuffer.allocate(BATCH_BYTES);
        b.put(kind).putInt(partition).putInt(count).putLong(seq).putLong(first).flip();
        writable(batches).append(b);
    }

    /**
     * Retention deleted {@code deleted} from {@code partition} (its commit went through, or its outcome was lost:
     * a deletion that did not take effect leaves the messages for the next one, or the log, to find again).
     */
    public synchronized void retained(int partition, FoundBatches deleted) {
        if (deleted.isEmpty()) {
            return;
        }
        int sweep = ++sweeps;
        ByteBuffer b = ByteBuffer.allocate(deleted.size() * SWEPT_BYTES);
        for (int i = 0; i < deleted.size(); i++) {
            b.put(SWEPT).putInt(partition).putInt(sweep).putInt(deleted.messages(i)).putLong(deleted.seq(i))
                    .putLong(deleted.lowest(i)).putLong(deleted.highest(i));
        }
        writable(swept).append(b.flip());
    }

    /** The batches' file. */
    public Path file() {
        return batchesFile;
    }

    /** The retention runs' file. */
    public Path retentionFile() {
        return sweptFile;
    }

    /**
     * The ledger against the log of {@code partitions} as it is now and what retention deleted on the way, compared
     * in the database ({@code WrittenBatches}). Of retention runs that saw the same messages (one whose commit did not
     * go through, and the next), only the last counts; so does the log over a run whose messages it still holds.
     */
    public Tally tally(Connection c, WorkerShare.Range partitions) throws SQLException {
        return tally(c, partitions, 0, 0);
    }

    /**
     * The tally of {@link #tally(Connection, WorkerShare.Range)}, of the ledger of a driver that died with up to
     * {@code inFlight} batches of at most {@code batchSize} messages sent and never heard back: batches the log holds
     * under sequences the ledger never recorded, no more of them than that, count as uncertain batches that landed
     * rather than as messages no writer wrote.
     */
    public Tally tally(Connection c, WorkerShare.Range partitions, int inFlight, int batchSize) throws SQLException {
        return WrittenBatches.tally(c, this, partitions, inFlight, batchSize);
    }

    /** Each batch as a row {@code seq, state, partition, first, count} of COPY's text format, read from the file. */
    void writeBatches(Writer out) throws IOException {
        LedgerFile.forEach(batchesFile, BATCH_BYTES,
                b -> row(out, b.getLong(9), b.get(0), b.getInt(1), b.getLong(17), b.getInt(5)));
    }

    /**
     * Each batch a retention run deleted as a row {@code partition, run, seq, lowest, highest, messages}; none when a
     * run left no such file.
     */
    void writeSwept(Writer out) throws IOException {
        if (!Files.isRegularFile(sweptFile)) {
            return;
        }
        LedgerFile.forEach(sweptFile, SWEPT_BYTES,
                b -> row(out, b.getInt(1), b.getInt(5), b.getLong(13), b.getLong(21), b.getLong(29), b.getInt(9)));
    }

    private static void row(Writer out, long... columns) throws IOException {
        for (int i = 0; i < columns.length; i++) {
            if (i > 0) {
                out.write('\t');
            }
            out.write(Long.toString(columns[i]));
        }
        out.write('\n');
    }

    @Override
    public void close() {
        if (batches != null) {
            batches.close();
            swept.close();
        }
    }

    private LedgerFile writable(LedgerFile file) {
        if (file == null) {
            throw new IllegalStateException("a ledger read back from " + batchesFile + " takes no more batches");
        }
        return file;
    }
}

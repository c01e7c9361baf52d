package dev.gauntlet.queue.workqueue;

import dev.gauntlet.core.result.LedgerFile;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the writers committed to having produced and the readers to having acknowledged, as message ids recorded
 * after each commit. In a work queue each message is for one reader only, so at the end every produced id must be
 * acknowledged exactly once or still wait in the queue; the {@link Tally} sets the two side by side.
 *
 * <p>A commit whose outcome never came back (the connection broke during COMMIT) is recorded apart, as ids that may
 * have been produced or acknowledged: verification settles them against the database ({@link AckIds}) and counts
 * those that took effect.
 *
 * <p>The ledger is a {@link LedgerFile}, {@value #FILE} in the run's directory, never held in the heap: ids as runs
 * of consecutive ids, a {@value #RECORD_BYTES}-byte record each (kind, how many, first id), one write per batch, so
 * a writer's batch of identity ids or a reader's claim of the oldest messages is one record or a few. The ledger is
 * checked in the database: copied into it as a stream ({@link #writeRows}) and tallied there ({@link AckIds}).
 * Thread safe: writers and readers record from any worker.
 */
public final class AckLedger implements AutoCloseable {

    /** The ledger's file in a run's directory. */
    public static final String FILE = "acks.ledger";

    static final int RECORD_BYTES = 13;

    /** What a record says of its ids; {@link #code} is its first byte, and the kind column of the copied ledger. */
    public enum Kind {
        /** A writer's insert of them committed. */
        PRODUCED,
        /** A reader's acknowledgement of them committed. */
        ACKED,
        /** A writer's insert of them was sent and its commit's outcome never came back. */
        MAYBE_PRODUCED,
        /** A reader's acknowledgement of them was sent and its commit's outcome never came back. */
        MAYBE_ACKED;

        public int code() {
            return ordinal() + 1;
        }
    }

    /**
     * The ledger at the end.
     *
     * @param produced         distinct ids produced
     * @param acknowledgements acknowledgements recorded, a redelivered message counting each time
     * @param acked            distinct ids acknowledged (those never produced included)
     * @param duplicates       ids acknowledged more than once
     * @param firstDuplicate   the lowest of them, or -1
     * @param phantoms         ids acknowledged but never produced
     * @param firstPhantom     the lowest of them, or -1
     * @param unacked          ids produced and never acknowledged: to look up in the queue
     * @param firstUnacked     the lowest of them, or -1
     * @param reissued         ids two committed inserts were given: the first insert was lost with the state of
     *                         the id sequence (a failover to a standby that missed both), and its message with it
     * @param firstReissued    the lowest of them, or -1
     */
    public record Tally(long produced, long acknowledgements, long acked, long duplicates, long firstDuplicate,
                        long phantoms, long firstPhantom, long unacked, long firstUnacked, long reissued,
                        long firstReissued) {
    }

    /** Where ids are written; null for a ledger read back from a run's directory. */
    private final LedgerFile ledger;
    private final Path file;
    /** Ids recorded, by kind. */
    private final AtomicLongArray counts = new AtomicLongArray(Kind.values().length);

    /** A ledger in a temporary file, deleted when the JVM exits: for a ledger used outside a run's directory. */
    public AckLedger() {
        this(LedgerFile.temporary("acks", RECORD_BYTES));
    }

    /** A new ledger in {@code dir}, a run's directory ({@value #FILE}, replacing any there). */
    public AckLedger(Path dir) {
        this(LedgerFile.create(dir.resolve(FILE), RECORD_BYTES));
    }

    private AckLedger(LedgerFile ledger) {
        this(ledger, ledger.file());
    }

    private AckLedger(LedgerFile ledger, Path file) {
        this.ledger = ledger;
        this.file = file;
    }

    /**
     * The ledger a run left in {@code dir} (whole records; a last one cut short by a killed driver left out), to be
     * checked after the fact; null when the directory holds none.
     */
    public static AckLedger read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        AckLedger read = new AckLedger(null, file);
        LedgerFile.forEach(file, RECORD_BYTES, b -> read.counts.addAndGet(b.get(0) - 1, b.getInt(1)));
        return read;
    }

    /** A writer committed messages {@code ids}. */
    public void produced(long[] ids) {
        record(Kind.PRODUCED, ids);
    }

    /**
     * A writer sent the commit of its insert of {@code ids} and the outcome never came back (the connection broke
     * during COMMIT); verification asks the database whether it took effect.
     */
    public void maybeProduced(long[] ids) {
        record(Kind.MAYBE_PRODUCED, ids);
    }

    /** A reader committed its acknowledgement of messages {@code ids}. */
    public void acked(long[] ids) {
        record(Kind.ACKED, ids);
    }

    /**
     * A reader sent the commit of its acknowledgement of {@code ids} and the outcome never came back (the connection
     * broke during COMMIT); verification asks the database whether it took effect.
     */
    public void maybeAcked(long[] ids) {
        record(Kind.MAYBE_ACKED, ids);
    }

    /** The ids, as runs of consecutive ones, in one write. */
    private void record(Kind kind, long[] ids) {
        if (ledger == null) {
            throw new IllegalStateException("a ledger read back from " + file + " takes no more ids");
        }
        if (ids.length == 0) {
            return;
        }
        int runs = 1;
        for (int i = 1; i < ids.length; i++) {
            runs += ids[i] == ids[i - 1] + 1 ? 0 : 1;
        }
        ByteBuffer b = ledger.buffer(runs);
        int start = 0;
        for (int i = 1; i <= ids.length; i++) {
            if (i == ids.length || ids[i] != ids[i - 1] + 1) {
                b.put((byte) kind.code()).putInt(i - start).putLong(ids[start]);
                start = i;
            }
        }
        ledger.append(b.flip());
        counts.addAndGet(kind.ordinal(), ids.length);
    }

    /** Ids recorded as {@code kind}, an id once per time it was recorded. */
    public long count(Kind kind) {
        return counts.get(kind.ordinal());
    }

    /** The ledger's file. */
    public Path file() {
        return file;
    }

    /**
     * Writes each record as a line {@code <prefix>kind<TAB>first id<TAB>how many}, the text format of a COPY into
     * {@code (kind, first_id, ids)} (with a prefix such as {@code "3\t"}, of a table with one more column before
     * them), read from the file as it goes.
     */
    public void writeRows(Writer out, String prefix) throws IOException {
        LedgerFile.forEach(file, RECORD_BYTES, b -> {
            out.write(prefix);
            out.write(Integer.toString(b.get(0)));
            out.write('\t');
            out.write(Long.toString(b.getLong(5)));
            out.write('\t');
            out.write(Integer.toString(b.getInt(1)));
            out.write('\n');
        });
    }

    /** The tally of what was recorded (no outcome settled), worked out in the database on {@code c}. */
    public Tally tally(Connection c) throws SQLException {
        try (AckIds ids = AckIds.of(c, this)) {
            return ids.tally();
        }
    }

    @Override
    public void close() {
        if (ledger != null) {
            ledger.close();
        }
    }
}

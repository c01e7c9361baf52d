package dev.gauntlet.trainevents.workload;

import dev.gauntlet.core.result.LedgerFile;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the driver heard commit, event by event: the ids of every event added, and every later step of the
 * lifecycle, each an event and the state it was moved to (a process's PROCESSING, COMPLETE or FAILED, an archive's
 * ARCHIVED); with those whose commit was in flight when a connection broke kept apart, as uncertain. Checks copy it
 * into the database and compare it with what the tables hold: every event added is there, none is there the driver
 * did not add, and none is in a state behind one the driver heard it reach.
 *
 * <p>The ledger is a {@link LedgerFile}, {@value #FILE} in the run's directory, never held in the heap: a
 * {@value #RECORD_BYTES}-byte record per event added or moved (kind, state, the id's two longs), one write per
 * batch, so a ledger costs the same few bytes of heap at any length of run, and a driver killed mid-run leaves every
 * whole record to be read back ({@link #read}). Thread safe.
 */
public final class EventLedger implements AutoCloseable {

    /** The ledger's file in a run's directory. */
    public static final String FILE = "events.ledger";

    static final int RECORD_BYTES = 18;

    /** The states a step moves an event to, as the ledger stores them: an index into {@link #STATES}. */
    static final byte PENDING = 0;
    static final byte PROCESSING = 1;
    static final byte COMPLETE = 2;
    static final byte FAILED = 3;
    static final byte ARCHIVED = 4;
    /** Their names, as the status table, the payload's lifecycle and the copied ledger spell them. */
    static final String[] STATES = {"PENDING", "PROCESSING", "COMPLETE", "FAILED", "ARCHIVED"};

    /** The kinds of record: an add or a later step, heard to commit or with its outcome unknown. */
    private static final byte ADDED = 1;
    private static final byte MAYBE_ADDED = 2;
    private static final byte STEPPED = 3;
    private static final byte MAYBE_STEPPED = 4;

    /** The state named {@code name}, as {@link #STATES} spells it. */
    static byte state(String name) {
        for (byte i = 0; i < STATES.length; i++) {
            if (STATES[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no event state '" + name + "'");
    }

    /** Where records are written; null for a ledger read back from a run's directory. */
    private final LedgerFile ledger;
    private final Path file;
    private final AtomicLong added = new AtomicLong();
    private final AtomicLong maybeAdded = new AtomicLong();
    private final AtomicLong steps = new AtomicLong();

    /** A ledger in a temporary file: for one used outside a run's directory (a priming run apart, a test). */
    public EventLedger() {
        this(LedgerFile.temporary("events", RECORD_BYTES));
    }

    /** A new ledger in {@code dir}, a run's directory ({@value #FILE}, replacing any there). */
    public EventLedger(Path dir) {
        this(LedgerFile.create(dir.resolve(FILE), RECORD_BYTES));
    }

    private EventLedger(LedgerFile ledger) {
        this.ledger = ledger;
        this.file = ledger.file();
    }

    private EventLedger(Path file, long added, long maybeAdded, long steps) {
        this.ledger = null;
        this.file = file;
        this.added.set(added);
        this.maybeAdded.set(maybeAdded);
        this.steps.set(steps);
    }

    /**
     * The ledger a run left in {@code dir} (whole records; a last one cut short by a killed driver left out), to be
     * checked after the fact; null when the directory holds none.
     */
    public static EventLedger read(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        long[] kinds = new long[MAYBE_STEPPED + 1];
        LedgerFile.forEach(file, RECORD_BYTES, b -> kinds[b.get(0)]++);
        return new EventLedger(file, kinds[ADDED], kinds[MAYBE_ADDED], kinds[STEPPED]);
    }

    /** Events whose add committed. */
    public void added(UUID[] batch, int n) {
        append(ADDED, batch, null, PENDING, n);
        added.addAndGet(n);
    }

    /** Events whose add was sent but whose commit's outcome never came back: present or absent are both right. */
    public void maybeAdded(UUID[] batch, int n) {
        append(MAYBE_ADDED, batch, null, PENDING, n);
        maybeAdded.addAndGet(n);
    }

    /** The first {@code n} events of {@code claimed}, whose process committed, each moved to {@code states[i]}. */
    void processed(UUID[] claimed, byte[] states, int n) {
        append(STEPPED, claimed, states, (byte) -1, n);
        steps.addAndGet(n);
    }

    /** A process sent whose commit's outcome never came back: each event in its old state or the new are both right. */
    void maybeProcessed(UUID[] claimed, byte[] states, int n) {
        append(MAYBE_STEPPED, claimed, states, (byte) -1, n);
    }

    /** The first {@code n} events of {@code moved}, whose archive committed. */
    void archived(UUID[] moved, int n) {
        append(STEPPED, moved, null, ARCHIVED, n);
        steps.addAndGet(n);
    }

    /** An archive sent whose commit's outcome never came back: live or archived are both right. */
    void maybeArchived(UUID[] moved, int n) {
        append(MAYBE_STEPPED, moved, null, ARCHIVED, n);
    }

    /** The first {@code n} events, each moved to {@code moved[i]}, or to {@code all} when {@code moved} is null. */
    private void append(byte kind, UUID[] events, byte[] moved, byte all, int n) {
        if (ledger == null) {
            throw new IllegalStateException("a ledger read back from " + file + " takes no more events");
        }
        if (n == 0) {
            return;
        }
        ByteBuffer b = ledger.buffer(n);
        for (int i = 0; i < n; i++) {
            b.put(kind).put(moved == null ? all : moved[i]).putLong(events[i].getMostSignificantBits())
                    .putLong(events[i].getLeastSignificantBits());
        }
        ledger.append(b.flip());
    }

    /** Events whose add was heard to commit. */
    public long size() {
        return added.get();
    }

    /** Events whose add's outcome never came back. */
    public long uncertainSize() {
        return maybeAdded.get();
    }

    /** Process and archive steps heard commit (an event's PROCESSING, its COMPLETE or FAILED, its ARCHIVED). */
    public long stepsSize() {
        return steps.get();
    }

    /** The ledger's file. */
    public Path file() {
        return file;
    }

    /**
     * Writes {@code <prefix>id<TAB>certain<TAB>state} lines, the text format of
     * {@code COPY te_ledger (id, certain, state) FROM STDIN} (with a prefix such as {@code "3\t"}, of a table with one
     * more column before them), read from the file as it goes: an add's state is PENDING.
     */
    public void copyTo(Writer out, String prefix) throws IOException {
        LedgerFile.forEach(file, RECORD_BYTES, b -> {
            byte kind = b.get(0);
            out.write(prefix);
            out.write(new UUID(b.getLong(2), b.getLong(10)).toString());
            out.write(kind == ADDED || kind == STEPPED ? "\tt\t" : "\tf\t");
            out.write(STATES[b.get(1)]);
            out.write('\n');
        });
    }

    @Override
    public void close() {
        if (ledger != null) {
            ledger.close();
        }
    }

    /** Closes the ledger and deletes its file: one whose events no check will ever see (a priming run apart's). */
    public void delete() {
        if (ledger != null) {
            ledger.delete();
        }
    }
}

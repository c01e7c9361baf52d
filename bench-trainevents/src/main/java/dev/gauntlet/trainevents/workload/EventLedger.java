package dev.gauntlet.trainevents.workload;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.UUID;

/**
 * What the driver heard commit, event by event: the ids of every event added, and every later step of the
 * lifecycle, each an event and the state it was moved to (a process's PROCESSING, COMPLETE or FAILED, an archive's
 * ARCHIVED); with those whose commit was in flight when a connection broke kept apart, as uncertain. Ids are kept as
 * pairs of longs and states as one byte each, appended, never per-event objects: a million events cost 16 MB, and
 * their three later steps 51 MB more (17 bytes a step). Checks copy it into the database and compare it with what
 * the tables hold: every event added is there, none is there the driver did not add, and none is in a state behind
 * one the driver heard it reach.
 */
public final class EventLedger {

    /** The states a step moves an event to, as the ledger stores them: an index into {@link #STATES}. */
    static final byte PENDING = 0;
    static final byte PROCESSING = 1;
    static final byte COMPLETE = 2;
    static final byte FAILED = 3;
    static final byte ARCHIVED = 4;
    /** Their names, as the status table, the payload's lifecycle and the copied ledger spell them. */
    static final String[] STATES = {"PENDING", "PROCESSING", "COMPLETE", "FAILED", "ARCHIVED"};

    /** The state named {@code name}, as {@link #STATES} spells it. */
    static byte state(String name) {
        for (byte i = 0; i < STATES.length; i++) {
            if (STATES[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no event state '" + name + "'");
    }

    private long[] ids = new long[2 * 4096];
    private int size;
    private long[] uncertain = new long[16];
    private int uncertainSize;
    private final Steps steps = new Steps(4096);
    private final Steps uncertainSteps = new Steps(8);

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

    /** The first {@code n} events of {@code claimed}, whose process committed, each moved to {@code states[i]}. */
    synchronized void processed(UUID[] claimed, byte[] states, int n) {
        steps.append(claimed, states, (byte) -1, n);
    }

    /** A process sent whose commit's outcome never came back: each event in its old state or the new are both right. */
    synchronized void maybeProcessed(UUID[] claimed, byte[] states, int n) {
        uncertainSteps.append(claimed, states, (byte) -1, n);
    }

    /** The first {@code n} events of {@code moved}, whose archive committed. */
    synchronized void archived(UUID[] moved, int n) {
        steps.append(moved, null, ARCHIVED, n);
    }

    /** An archive sent whose commit's outcome never came back: live or archived are both right. */
    synchronized void maybeArchived(UUID[] moved, int n) {
        uncertainSteps.append(moved, null, ARCHIVED, n);
    }

    public synchronized long size() {
        return size;
    }

    public synchronized long uncertainSize() {
        return uncertainSize;
    }

    /** Process and archive steps heard commit (an event's PROCESSING, its COMPLETE or FAILED, its ARCHIVED). */
    public synchronized long stepsSize() {
        return steps.size;
    }

    /**
     * Writes {@code <prefix>id<TAB>certain<TAB>state} lines, the text format of
     * {@code COPY te_ledger (id, certain, state) FROM STDIN} (with a prefix such as {@code "3\t"}, of a table with one
     * more column before them): an add's state is PENDING.
     */
    public synchronized void copyTo(Writer out, String prefix) throws IOException {
        write(out, prefix, ids, size, "\tt\tPENDING\n");
        write(out, prefix, uncertain, uncertainSize, "\tf\tPENDING\n");
        steps.write(out, prefix, "\tt\t");
        uncertainSteps.write(out, prefix, "\tf\t");
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

    /** Steps appended: an event (two longs) and the state it moved to (a byte). Guarded by the ledger's lock. */
    private static final class Steps {
        private long[] ids;
        private byte[] states;
        private int size;

        Steps(int capacity) {
            ids = new long[2 * capacity];
            states = new byte[capacity];
        }

        /** Each event moved to {@code moved[i]}, or to {@code all} when {@code moved} is null. */
        void append(UUID[] events, byte[] moved, byte all, int n) {
            ids = ensure(ids, 2 * (size + n));
            if (size + n > states.length) {
                states = Arrays.copyOf(states, Math.max(size + n, states.length * 2));
            }
            for (int i = 0; i < n; i++) {
                ids[2 * size] = events[i].getMostSignificantBits();
                ids[2 * size + 1] = events[i].getLeastSignificantBits();
                states[size] = moved == null ? all : moved[i];
                size++;
            }
        }

        void write(Writer out, String prefix, String certain) throws IOException {
            for (int i = 0; i < size; i++) {
                out.write(prefix);
                out.write(new UUID(ids[2 * i], ids[2 * i + 1]).toString());
                out.write(certain);
                out.write(STATES[states[i]]);
                out.write('\n');
            }
        }
    }
}

package dev.gauntlet.core.run;

/**
 * What an operation can see and say during one attempt, beyond doing its work: when it was due, and what only it
 * can observe: a count of what it did (messages, rows, bytes), a latency it learned from the data (end to end from
 * a producer's timestamp), a gauge (lag). Everything said is held until the attempt commits and discarded if it
 * fails or is retried, so a retried attempt never counts twice; the runner then records it into histograms and
 * counters it owns, which flow into intervals, the {@code .hlog}, result.json, merges and reports like operation
 * latencies. An operation never reads a clock or creates a histogram for measurement.
 *
 * <p>Thread safety: none needed. One attempt belongs to one client, which one worker serves at a time.
 */
public final class Attempt {

    enum Kind { COUNT, LATENCY, LATENCY_SINCE, GAUGE, GAUGE_MILLIS_SINCE }

    private long intendedNanoTime;
    private long firstStartNanoTime;
    private int size;
    private Kind[] kinds = new Kind[4];
    private String[] names = new String[4];
    private long[] values = new long[4];
    private final java.util.ArrayList<Runnable> onCommit = new java.util.ArrayList<>(2);
    private final java.util.ArrayList<Runnable> onUnknownCommit = new java.util.ArrayList<>(2);

    /**
     * An attempt outside a run (a test or a tool executing an operation directly): what the operation says is held
     * and never recorded. The runner makes one per client and reuses it.
     */
    public Attempt() {
    }

    /** When the operation was due (its first attempt's intended start), on {@link RunClock}: write it into data. */
    public long intendedEpochNanos() {
        return RunClock.epochNanos(intendedNanoTime);
    }

    /**
     * How late the operation's first attempt started after it was due (0 when on time): with a {@code --rate}
     * schedule, its lag behind the schedule (pgbench's "schedule lag"), to record as a {@link #latency}.
     */
    public long startLagNanos() {
        return Math.max(0, firstStartNanoTime - intendedNanoTime);
    }

    /** Adds {@code amount} to the operation's counter {@code counter} if this attempt commits. */
    public void count(String counter, long amount) {
        add(Kind.COUNT, counter, amount);
    }

    /** A latency the operation learned (e.g. one the server reported), recorded under {@code observation}. */
    public void latency(String observation, long nanos) {
        add(Kind.LATENCY, observation, nanos);
    }

    /**
     * The time from {@code epochNanos} (a {@link RunClock} timestamp carried in the data, e.g. when a message was
     * due to be produced) to this attempt's commit, recorded under {@code observation}: end-to-end latency.
     */
    public void latencySince(String observation, long epochNanos) {
        add(Kind.LATENCY_SINCE, observation, epochNanos);
    }

    /** The current value of a gauge (e.g. consumer lag in messages); the interval keeps the last value set. */
    public void gauge(String gauge, long value) {
        add(Kind.GAUGE, gauge, value);
    }

    /**
     * A gauge of age: the milliseconds from {@code epochNanos} (a {@link RunClock} timestamp in the data, e.g. when
     * the newest message read was produced) to this attempt's commit; e.g. consumer lag in time.
     */
    public void gaugeMillisSince(String gauge, long epochNanos) {
        add(Kind.GAUGE_MILLIS_SINCE, gauge, epochNanos);
    }

    /**
     * Work for when this attempt commits (and never if it fails or is retried): bookkeeping that must follow the
     * database, e.g. a consumer's ledger of the offsets it has read. Runs on the worker, after the commit.
     */
    public void afterCommit(Runnable action) {
        onCommit.add(action);
    }

    /**
     * Work for when this attempt's commit was sent and its outcome never came back (the connection broke during
     * COMMIT): the database may or may not have it. A ledger records the claim as uncertain, so verification can tell
     * a message whose acknowledgement was lost in flight from one that was lost. Nothing else said is recorded.
     */
    public void ifCommitUnknown(Runnable action) {
        onUnknownCommit.add(action);
    }

    private void add(Kind kind, String name, long value) {
        if (size == names.length) {
            kinds = java.util.Arrays.copyOf(kinds, size * 2);
            names = java.util.Arrays.copyOf(names, size * 2);
            values = java.util.Arrays.copyOf(values, size * 2);
        }
        kinds[size] = kind;
        names[size] = name;
        values[size] = value;
        size++;
    }

    // ---- for the runner ----

    void begin(long intendedNanoTime, long firstStartNanoTime) {
        this.intendedNanoTime = intendedNanoTime;
        this.firstStartNanoTime = firstStartNanoTime;
        size = 0;
        onCommit.clear();
        onUnknownCommit.clear();
    }

    /** The commit's outcome is unknown: runs the work for that case, and discards the rest. */
    void commitUnknown() {
        for (Runnable action : onUnknownCommit) {
            action.run();
        }
        begin(intendedNanoTime, firstStartNanoTime);
    }

    boolean isEmpty() {
        return size == 0 && onCommit.isEmpty();
    }

    /** Hands what was said to {@code sink}, in order; {@code LATENCY_SINCE} values are epoch timestamps. */
    void replay(Sink sink) {
        for (int i = 0; i < size; i++) {
            sink.accept(kinds[i], names[i], values[i]);
            names[i] = null;
        }
        size = 0;
        for (Runnable action : onCommit) {
            action.run();
        }
        onCommit.clear();
    }

    @FunctionalInterface
    interface Sink {
        void accept(Kind kind, String name, long value);
    }
}

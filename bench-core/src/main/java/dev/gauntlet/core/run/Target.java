package dev.gauntlet.core.run;

/**
 * What the runner drives: opens sessions, runs one attempt of an operation inside a transaction, and says
 * what kind of failure an exception is. A JDBC database and a RocksDB instance are both targets, so one
 * runner serves every workload.
 */
public interface Target<S> extends AutoCloseable {

    /** A session for one client: a new connection (direct) or one borrowed from a pool (pooled). */
    S open() throws Exception;

    /** Gives a session back: closes it, or returns it to the pool; {@code broken} ones are discarded. */
    void release(S session, boolean broken);

    /**
     * True when sessions are borrowed per transaction from a shared pool (transaction pooling) rather than
     * owned by a client for its whole life; the runner then measures the borrow as pool wait.
     */
    boolean sessionPerTransaction();

    /**
     * One attempt: begin, {@code operation.execute(session, attempt)}, commit; roll back on failure and rethrow.
     * An operation whose {@link Operation#commit()} is not {@link Operation.Commit#EXPLICIT} runs as one statement
     * the server commits itself, where the target supports that.
     */
    void transact(S session, Operation<S> operation, Attempt attempt) throws Exception;

    /** The error policy's verdict on an exception thrown by {@link #open} or {@link #transact}. */
    Failure classify(Throwable error);

    @Override
    void close();
}

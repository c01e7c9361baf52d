package dev.gauntlet.core.run;

/**
 * One unit of work a client performs, named for the histogram it lands in (e.g. {@code newOrder}).
 * {@link #execute} is one attempt: the {@link Target} wraps it in a transaction, and the runner times, retries and
 * reconnects around it. An operation never measures time itself; what only it can see (counts of what it did, an
 * end-to-end latency from a timestamp in the data, a gauge) it tells the {@link Attempt}, which the runner records
 * if the attempt commits.
 *
 * @param <S> the session type, e.g. a JDBC {@code Connection} or a RocksDB handle
 */
public interface Operation<S> {

    String name();

    void execute(S session, Attempt attempt) throws Exception;

    /**
     * How this operation's work is committed; {@link Commit#EXPLICIT} (the target begins a transaction, runs the
     * operation and commits) unless it says otherwise.
     */
    default Commit commit() {
        return Commit.EXPLICIT;
    }

    /** How an operation's work becomes durable, and so what a session lost during it means. */
    enum Commit {
        /** In a transaction the target commits after the operation: the commit is one more round trip. */
        EXPLICIT,
        /**
         * One statement the server commits as it answers (a procedure call in auto-commit): no commit round trip,
         * so a session lost while it runs leaves the commit unknown (an ambiguous commit).
         */
        IMPLICIT,
        /** One statement that only reads, in auto-commit: nothing to commit; a lost session is a connection error. */
        NONE
    }

    /** An operation from a name and a body that needs only the session. */
    static <S> Operation<S> of(String name, Body<S> body) {
        return observing(name, (session, attempt) -> body.execute(session));
    }

    /** An operation from a name and a body that also reports to its {@link Attempt}. */
    static <S> Operation<S> observing(String name, ObservingBody<S> body) {
        return new Operation<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void execute(S session, Attempt attempt) throws Exception {
                body.execute(session, attempt);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** The body of an operation created with {@link #of}. */
    @FunctionalInterface
    interface Body<S> {
        void execute(S session) throws Exception;
    }

    /** The body of an operation created with {@link #observing}. */
    @FunctionalInterface
    interface ObservingBody<S> {
        void execute(S session, Attempt attempt) throws Exception;
    }
}

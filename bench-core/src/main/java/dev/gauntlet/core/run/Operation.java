package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.Counters;

/**
 * One unit of work a client performs, named for the histogram it lands in (e.g. {@code newOrder}).
 * {@link #execute} is one attempt: the {@link Target} wraps it in a transaction, and the runner times,
 * retries and reconnects around it. An operation never measures time itself.
 *
 * @param <S> the session type, e.g. a JDBC {@code Connection} or a RocksDB handle
 */
public interface Operation<S> {

    String name();

    void execute(S session) throws Exception;

    /**
     * Called once after the operation committed (never for a failed or retried attempt), so it can count
     * facts about what it did, e.g. {@code counters.add("orderLines", 10)}. Does nothing by default.
     */
    default void committed(Counters counters) {
    }

    /** An operation from a name and a body, for workloads that need no class of their own. */
    static <S> Operation<S> of(String name, Body<S> body) {
        return new Operation<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void execute(S session) throws Exception {
                body.execute(session);
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
}

package dev.gauntlet.core.run;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target without a database, for testing the runner's timing and error policy: sessions are numbered,
 * operations run in the calling thread, and {@link TestFailure}s are classified by the kind they carry.
 */
public final class CountingTarget implements Target<Integer> {

    /** An exception that says how the error policy should treat it. */
    static final class TestFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final Failure.Kind kind;

        TestFailure(Failure.Kind kind) {
            super("test " + kind);
            this.kind = kind;
        }
    }

    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger released = new AtomicInteger();
    final AtomicInteger broken = new AtomicInteger();
    final AtomicInteger failOpens = new AtomicInteger();
    private final boolean perTransaction;

    public CountingTarget(boolean perTransaction) {
        this.perTransaction = perTransaction;
    }

    @Override
    public Integer open() throws Exception {
        if (failOpens.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TestFailure(Failure.Kind.CONNECTION);
        }
        return opened.incrementAndGet();
    }

    @Override
    public void release(Integer session, boolean isBroken) {
        released.incrementAndGet();
        if (isBroken) {
            broken.incrementAndGet();
        }
    }

    @Override
    public boolean sessionPerTransaction() {
        return perTransaction;
    }

    @Override
    public void transact(Integer session, Operation<Integer> operation, Attempt attempt) throws Exception {
        operation.execute(session, attempt);
    }

    @Override
    public Failure classify(Throwable error) {
        if (error instanceof TestFailure t) {
            return new Failure(t.kind, "T" + t.kind.ordinal(), t.getMessage());
        }
        return Failure.fatal(error);
    }

    @Override
    public void close() {
    }
}

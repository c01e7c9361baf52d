package dev.gauntlet.core.run;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target without a database, for measuring and testing the runner itself: sessions are numbers, an operation
 * runs in the calling thread, and a {@link Fault} says how the error policy should treat it. Direct (a session per
 * client) or pooled (a session borrowed per transaction, optionally from a limited number of permits, so pool waits
 * are real). It counts what it was asked to do, and can be told to refuse the next opens, as a server that is away.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class SyntheticTarget implements Target<Integer> {

    /** An exception that carries the kind of failure it stands for. */
    public static final class Fault extends Exception {
        private static final long serialVersionUID = 1L;
        private final Failure.Kind kind;

        public Fault(Failure.Kind kind) {
            super("synthetic " + kind.label());
            this.kind = kind;
        }

        public Failure.Kind kind() {
            return kind;
        }
    }

    private final boolean perTransaction;
    private final Semaphore permits;
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger broken = new AtomicInteger();
    private final AtomicInteger refuseOpens = new AtomicInteger();

    private SyntheticTarget(boolean perTransaction, int poolSize) {
        this.perTransaction = perTransaction;
        this.permits = poolSize > 0 ? new Semaphore(poolSize) : null;
    }

    /** Each client owns a session for its whole life. */
    public static SyntheticTarget direct() {
        return new SyntheticTarget(false, 0);
    }

    /** Sessions borrowed per transaction from {@code poolSize} permits (0: as many as asked for). */
    public static SyntheticTarget pooled(int poolSize) {
        return new SyntheticTarget(true, poolSize);
    }

    /** The next {@code count} opens fail with a connection failure. */
    public void refuseNextOpens(int count) {
        refuseOpens.set(count);
    }

    @Override
    public Integer open() throws Exception {
        if (refuseOpens.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new Fault(Failure.Kind.CONNECTION);
        }
        if (permits != null) {
            permits.acquire();
        }
        return opened.incrementAndGet();
    }

    @Override
    public void release(Integer session, boolean isBroken) {
        released.incrementAndGet();
        if (isBroken) {
            broken.incrementAndGet();
        }
        if (permits != null) {
            permits.release();
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
        if (error instanceof Fault f) {
            return new Failure(f.kind(), "S" + f.kind().ordinal(), f.getMessage());
        }
        return Failure.fatal(error);
    }

    public int opened() {
        return opened.get();
    }

    public int released() {
        return released.get();
    }

    public int broken() {
        return broken.get();
    }

    @Override
    public void close() {
    }
}

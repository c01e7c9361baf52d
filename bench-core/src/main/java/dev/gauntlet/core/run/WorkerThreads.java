package dev.gauntlet.core.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * The run's worker threads (OS or virtual, {@link ThreadKind}), daemons each with its own stripe (its slot in the
 * latency recorders); when the run ends,
 * joined within the drain, and the ones still busy then counted.
 */
final class WorkerThreads {

    /** How long to wait for operations still in flight when the run ends (a stalled server is cut off by socket timeouts). */
    private static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(120);

    private final List<Thread> threads = new ArrayList<>();

    /** Starts {@code count} workers of {@code kind}, each running {@code work} with its stripe. */
    WorkerThreads(int count, ThreadKind kind, IntConsumer work) {
        for (int i = 0; i < count; i++) {
            int stripe = i;
            Thread t = kind.newThread("gauntlet-worker-" + i, () -> work.accept(stripe));
            threads.add(t);
            t.start();
        }
    }

    /** Wakes every worker waiting on its own thread for its client's time, to see that the run stopped. */
    void wakeAll() {
        threads.forEach(LockSupport::unpark);
    }

    int count() {
        return threads.size();
    }

    /** Waits for the workers to finish the operations in flight, up to the drain's limit; returns how many did not. */
    long drain() throws InterruptedException {
        long drainDeadline = System.nanoTime() + DRAIN_NANOS;
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(drainDeadline - System.nanoTime())));
        }
        return threads.stream().filter(Thread::isAlive).count();
    }
}

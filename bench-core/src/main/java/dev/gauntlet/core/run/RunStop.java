package dev.gauntlet.core.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether a run stops before its deadline, when and why: a stop requested (Ctrl-C) or a fatal error (the first
 * reason and the first message are kept), or every client done. The thread that closes intervals waits on it
 * between closes and is woken by a stop or by the last client finishing.
 */
final class RunStop {

    private final AtomicReference<String> reason = new AtomicReference<>();
    private final AtomicReference<String> fatalError = new AtomicReference<>();
    private final CountDownLatch clientsDone;
    private final Object wakeReporter = new Object();

    private volatile boolean stopping;
    /** When a stop was requested (Ctrl-C, a fatal error): the run's end for everything measured. */
    private volatile long requestedAt = IntervalClock.NO_DEADLINE;

    RunStop(int clients) {
        this.clientsDone = new CountDownLatch(clients);
    }

    /** Asks the run to end early; the first reason is the run's. Idempotent. */
    void request(String why) {
        if (reason.compareAndSet(null, why)) {
            requestedAt = System.nanoTime();
        }
        stopping = true;
        synchronized (wakeReporter) {
            wakeReporter.notifyAll();
        }
    }

    /** A fatal error stops the run; the first message is the run's. */
    void fail(String message) {
        fatalError.compareAndSet(null, message);
        request("fatal error");
    }

    /**
     * The run is at its end, stopped or not (the deadline, the last client, the last phase's condition): nothing
     * starts any more, and operations in flight finish.
     */
    void end() {
        stopping = true;
    }

    /** Whether the run is ending: a stop was requested or it is at its end. */
    boolean stopping() {
        return stopping;
    }

    /** When a stop was requested, or {@link IntervalClock#NO_DEADLINE} while none was. */
    long requestedAt() {
        return requestedAt;
    }

    /** A client is done; the last one wakes the thread that closes intervals. */
    void clientDone() {
        clientsDone.countDown();
        if (clientsDone.getCount() == 0) {
            synchronized (wakeReporter) {
                wakeReporter.notifyAll();
            }
        }
    }

    /** Whether the run goes on: clients are left and nothing is stopping it. */
    boolean goesOn() {
        return clientsDone.getCount() > 0 && !stopping;
    }

    /** Waits up to {@code millis}, less when a stop comes or the last client finishes first. */
    void await(long millis) throws InterruptedException {
        synchronized (wakeReporter) {
            if (goesOn()) {
                wakeReporter.wait(millis);
            }
        }
    }

    /** Why the run ended: the reason of the stop, or {@code otherwise} when none was requested. */
    String reason(String otherwise) {
        reason.compareAndSet(null, otherwise);
        return reason.get();
    }

    /** The message of the failure that stopped the run, or null. */
    String fatalError() {
        return fatalError.get();
    }
}

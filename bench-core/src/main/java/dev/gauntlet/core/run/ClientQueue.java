package dev.gauntlet.core.run;

import java.util.concurrent.DelayQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Where clients wait for their time (an intended start, a backoff), earliest first, holding no thread: workers take
 * the ones whose time has come. When the run ends, it sends the idle workers back to see the stop and gives up the
 * clients still waiting.
 */
final class ClientQueue<S> {

    private final DelayQueue<SimulatedClient<S>> queue = new DelayQueue<>();

    /** The client waits until its {@code wakeAt}. */
    void add(SimulatedClient<S> c) {
        queue.add(c);
    }

    /** A client whose time has come, waiting up to {@code timeout} for one; null when none came. */
    SimulatedClient<S> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return queue.poll(timeout, unit);
    }

    /** Whether a waiting client's time has come by {@code now}. */
    boolean anotherClientIsDue(long now) {
        SimulatedClient<S> head = queue.peek();
        return head != null && head.wakeAt <= now;
    }

    /** Idle workers wait in the queue; a finished client per worker, due now, sends each back to see the stop. */
    void wakeIdleWorkers(int workers, RunStats stats) {
        for (int i = 0; i < workers; i++) {
            SimulatedClient<S> wakeUp = new SimulatedClient<>(-1, null, () -> null, stats);
            wakeUp.done = true;
            queue.add(wakeUp);
        }
    }

    /** Takes out each client still waiting and hands it to {@code finish}. */
    void finishWaiting(Consumer<SimulatedClient<S>> finish) {
        for (Object waiting : queue.toArray()) {
            @SuppressWarnings("unchecked")
            SimulatedClient<S> c = (SimulatedClient<S>) waiting;
            queue.remove(c);
            finish.accept(c);
        }
    }
}

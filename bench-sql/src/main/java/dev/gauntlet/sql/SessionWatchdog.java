package dev.gauntlet.sql;

import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a per-read socket timeout gave benchmark sessions, without its cost on every read (with a timeout the JDK reads
 * the socket non-blocking and polls before each wait): a session whose transaction has been under way longer than the
 * limit is aborted, its socket closed, so the read it is blocked in fails as a lost connection and the run's error
 * policy reconnects, as it did on a socket timeout. One daemon thread for a target's sessions looks every second (a
 * quarter of a shorter limit); a transaction marks its session busy and idle.
 */
final class SessionWatchdog implements AutoCloseable {

    private static final long IDLE = Long.MIN_VALUE;

    /** A session's state: since when its transaction has been under way, or {@link #IDLE}. */
    private static final class Watched {
        final Connection session;
        volatile long busySince = IDLE;

        Watched(Connection session) {
            this.session = session;
        }
    }

    /** By identity: pgjdbc's connections do not override equals. */
    private final Map<Connection, Watched> sessions = new ConcurrentHashMap<>();
    private final long limitNanos;
    private final ScheduledExecutorService timer;
    private final AtomicLong aborted = new AtomicLong();

    SessionWatchdog(Duration limit) {
        this.limitNanos = limit.toNanos();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gauntlet-session-watchdog");
            t.setDaemon(true);
            return t;
        });
        // at most a second late: a stuck session ends about when a 30 s socket timeout would have ended it
        long every = Math.max(Math.min(limit.toMillis() / 4, 1000), 50);
        timer.scheduleWithFixedDelay(this::check, every, every, TimeUnit.MILLISECONDS);
    }

    void watch(Connection session) {
        sessions.put(session, new Watched(session));
    }

    void forget(Connection session) {
        sessions.remove(session);
    }

    void busy(Connection session) {
        Watched w = sessions.get(session);
        if (w != null) {
            w.busySince = System.nanoTime();
        }
    }

    void idle(Connection session) {
        Watched w = sessions.get(session);
        if (w != null) {
            w.busySince = IDLE;
        }
    }

    /** Sessions aborted since the watchdog started. */
    long aborted() {
        return aborted.get();
    }

    private void check() {
        long now = System.nanoTime();
        for (Watched w : sessions.values()) {
            long since = w.busySince;
            if (since != IDLE && now - since > limitNanos) {
                w.busySince = IDLE;
                sessions.remove(w.session);
                aborted.incrementAndGet();
                try {
                    w.session.abort(Runnable::run); // closes the socket: the blocked read fails at once
                } catch (Exception | LinkageError ignored) {
                    // The session is being given up anyway; the client sees its read fail.
                }
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        sessions.clear();
    }
}

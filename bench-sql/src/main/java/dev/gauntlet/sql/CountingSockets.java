package dev.gauntlet.sql;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for benchmark sessions ({@link ConnectionSettings} sets it on session connections):
 * plain sockets whose streams count a round trip each time the driver reads after having written, i.e. each request
 * the driver had to wait on. A statement pgjdbc sends with BEGIN piggybacked is one trip; COMMIT is another.
 * {@code observe.RoundTrips} reads the count at every phase boundary.
 *
 * <p>Two things about the JDK's sockets these sockets change, each a system call or two a transaction on the driver's
 * hot path (reports/bench-script.md, "Fewer system calls a transaction"):
 * <ul>
 *   <li>One timed operation (a connect or a read with a timeout) leaves the JDK's socket non-blocking for good, and on
 *       an OS thread every later read that finds no answer yet is then a read, a poll and a read again. pgjdbc times
 *       its connect and its TLS handshake ({@code connectTimeout}) and its read of the answer to the TLS request
 *       ({@code sslResponseTimeout}). A session opened within a {@link #startup} (as {@code connectWatched} opens one,
 *       without a {@code socketTimeout}) connects untimed, the timeouts set while it starts up are held back until
 *       it has, and a timer closes its socket if the whole startup (connect, TLS, authentication) outlasts the limit,
 *       as libpq's {@code connect_timeout} bounds it: the socket stays blocking, one read a wait.</li>
 *   <li>JSSE reads a TLS record's 5-byte header and then its body, two reads a record. These sockets read what the
 *       kernel has, up to a whole record, at a small read and serve the next reads from it ({@link RecordBuffer}).</li>
 * </ul>
 */
public final class CountingSockets extends SocketFactory {

    private static final LongAdder TRIPS = new LongAdder();

    /** The startup under way on this thread, if any: its sockets connect untimed and are closed at its limit. */
    private static final ThreadLocal<Startup> STARTING = new ThreadLocal<>();

    /** Closes sockets whose startup outlasts its limit; one daemon thread, started at the first startup. */
    private static final class StartupTimer {
        static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gauntlet-startup-timer");
            t.setDaemon(true);
            return t;
        });

        static {
            TIMER.setRemoveOnCancelPolicy(true); // -C opens a session a transaction: drop each timer as it ends
        }
    }

    /** Round trips counted on every counting socket of this JVM so far. */
    public static long roundTrips() {
        return TRIPS.sum();
    }

    /**
     * Bounds the startup of the sessions this thread opens until {@link Startup#close()}: a socket still starting when
     * {@code limit} has passed is closed, so the connect or read it is blocked in fails.
     */
    public static Startup startup(Duration limit) {
        Startup s = new Startup(System.nanoTime() + limit.toNanos());
        STARTING.set(s);
        return s;
    }

    /**
     * One thread's session startup under a limit. Its sockets connect untimed, and the read timeouts pgjdbc sets while
     * it lasts (the TLS answer's, the handshake's, the session's) are held back: the last one applies when it ends.
     */
    public static final class Startup implements AutoCloseable {
        private final long deadlineNanos;
        private final List<CountingSocket> sockets = new ArrayList<>(1);
        private final List<ScheduledFuture<?>> timers = new ArrayList<>(1);
        private volatile boolean expired;

        private Startup(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        private void guard(CountingSocket socket) {
            sockets.add(socket);
            timers.add(StartupTimer.TIMER.schedule(() -> {
                expired = true;
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // the startup it ends fails either way
                }
            }, deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS));
        }

        /** True when the limit passed with a socket still starting up (which was then closed). */
        public boolean expired() {
            return expired;
        }

        @Override
        public void close() {
            for (ScheduledFuture<?> t : timers) {
                t.cancel(false);
            }
            STARTING.remove();
            for (CountingSocket s : sockets) {
                s.startupEnded();
            }
        }
    }

    @Override
    public Socket createSocket() {
        return new CountingSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private static Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        Socket s = new CountingSocket();
        if (local != null) {
            s.bind(local);
        }
        s.connect(remote);
        return s;
    }

    /** One connection's socket: written since the last read means the next read completes a round trip. */
    private static final class CountingSocket extends Socket {

        private boolean sent;
        /** The startup this socket connected in, until it ends; set and cleared on the thread that opens the session. */
        private Startup startup;
        private int heldTimeout;
        private InputStream input;
        private OutputStream output;

        /** Within a {@link #startup}: untimed (the socket stays blocking), the startup's timer bounding it. */
        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            Startup startup = STARTING.get();
            if (startup == null) {
                super.connect(endpoint, timeout);
                return;
            }
            heldTimeout = super.getSoTimeout();
            this.startup = startup;
            startup.guard(this);
            super.connect(endpoint, 0);
        }

        /** Within a startup the timeout is held back (a timed read would leave the socket non-blocking for good). */
        @Override
        public void setSoTimeout(int timeout) throws SocketException {
            if (startup != null) {
                if (timeout < 0) {
                    throw new IllegalArgumentException("timeout < 0");
                }
                heldTimeout = timeout;
                return;
            }
            super.setSoTimeout(timeout);
        }

        @Override
        public int getSoTimeout() throws SocketException {
            return startup != null ? heldTimeout : super.getSoTimeout();
        }

        /** The startup is over: the last timeout set during it now applies (none: the socket stays blocking). */
        private void startupEnded() {
            startup = null;
            if (heldTimeout > 0 && !isClosed()) {
                try {
                    super.setSoTimeout(heldTimeout);
                } catch (SocketException closedMeanwhile) {
                    // a closed socket's session fails at its next use
                }
            }
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (input == null) {
                input = new RecordBuffer(super.getInputStream()) {
                    @Override
                    void reading() {
                        answered();
                    }
                };
            }
            return input;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (output == null) {
                OutputStream raw = super.getOutputStream();
                output = new FilterOutputStream(raw) {
                    @Override
                    public void write(int b) throws IOException {
                        sent = true;
                        raw.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        sent = true;
                        raw.write(b, off, len);
                    }
                };
            }
            return output;
        }

        private void answered() {
            if (sent) {
                sent = false;
                TRIPS.increment();
            }
        }
    }
}

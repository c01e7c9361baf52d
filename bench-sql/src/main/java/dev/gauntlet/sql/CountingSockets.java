package dev.gauntlet.sql;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.LongAdder;
import javax.net.SocketFactory;

/**
 * pgjdbc's {@code socketFactory} for benchmark sessions ({@link ConnectionSettings} sets it on session connections):
 * plain sockets whose streams count a round trip each time the driver reads after having written, i.e. each request
 * the driver had to wait on. A statement pgjdbc sends with BEGIN piggybacked is one trip; COMMIT is another.
 * {@code observe.RoundTrips} reads the count at every phase boundary.
 */
public final class CountingSockets extends SocketFactory {

    private static final LongAdder TRIPS = new LongAdder();

    /** Round trips counted on every counting socket of this JVM so far. */
    public static long roundTrips() {
        return TRIPS.sum();
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
        private InputStream input;
        private OutputStream output;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (input == null) {
                InputStream raw = super.getInputStream();
                input = new FilterInputStream(raw) {
                    @Override
                    public int read() throws IOException {
                        answered();
                        return raw.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        answered();
                        return raw.read(b, off, len);
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

package dev.gauntlet.sql;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * A socket's input read through a buffer of one TLS record: a read smaller than the buffer takes what the kernel has,
 * up to {@link #SIZE} bytes, in one system call and hands out the rest at the next reads. JSSE reads each record's
 * 5-byte header and then its body: two reads a record straight from the socket, one through this. A read at least as
 * large as the buffer, with nothing buffered, goes straight to the socket.
 *
 * <p>Not {@link java.io.BufferedInputStream}: after a read that returned less than asked, which is nearly every read of
 * a database session, it asks the socket's {@code available()}, an {@code ioctl} a read. {@link #available()} here asks
 * the socket only for what a caller asks.
 *
 * <p>One reader at a time, as a socket's input is read. {@link #reading()} runs before each read, buffered or not.
 */
class RecordBuffer extends InputStream {

    /** The largest TLS record: 16 KiB of data, a 5-byte header and up to 256 bytes of padding and tag (RFC 8446, 5.2). */
    static final int SIZE = 16 * 1024 + 5 + 256;

    private final InputStream socket;
    private final byte[] buffer = new byte[SIZE];
    private int next;
    private int end;

    RecordBuffer(InputStream socket) {
        this.socket = socket;
    }

    /** Called before each read. */
    void reading() {
    }

    @Override
    public int read() throws IOException {
        reading();
        if (next == end && !fill()) {
            return -1;
        }
        return buffer[next++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        reading();
        if (next == end) {
            if (len >= SIZE) {
                return socket.read(b, off, len);
            }
            if (!fill()) {
                return -1;
            }
        }
        int n = Math.min(len, end - next);
        System.arraycopy(buffer, next, b, off, n);
        next += n;
        return n;
    }

    /** One read of what the socket has; false at its end. */
    private boolean fill() throws IOException {
        int n = socket.read(buffer, 0, SIZE);
        if (n <= 0) {
            return false;
        }
        next = 0;
        end = n;
        return true;
    }

    @Override
    public int available() throws IOException {
        return next < end ? end - next : socket.available();
    }

    @Override
    public long skip(long n) throws IOException {
        if (n <= 0) {
            return 0;
        }
        if (next < end) {
            int skipped = (int) Math.min(n, end - next);
            next += skipped;
            return skipped;
        }
        return socket.skip(n);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

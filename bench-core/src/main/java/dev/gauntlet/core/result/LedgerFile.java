package dev.gauntlet.core.result;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a workload heard commit, kept on disk in the run's directory rather than in the heap: an append-only file of
 * fixed-size records (a ledger's own layout; the first byte of each is its kind), so a ledger costs the same few
 * kilobytes of heap at any length of run and a check reads it back as a stream. Each {@link #append} is one write to
 * the file (into the file system's cache when it returns, where a killed driver leaves it), of whole records only; a
 * reader takes every whole record and ignores a last one cut short, so the records of a driver killed at any moment
 * are there to be checked afterwards ({@code check --ledger DIR}).
 *
 * <p>A write costs a system call (a microsecond or two): ledgers append per transaction or per batch, never per row.
 * Thread safe: concurrent appends each land whole, in some order.
 */
public final class LedgerFile implements AutoCloseable {

    private final Path file;
    private final int recordBytes;
    private final FileChannel channel;

    private LedgerFile(Path file, int recordBytes, FileChannel channel) {
        this.file = file;
        this.recordBytes = recordBytes;
        this.channel = channel;
    }

    /** A new, empty ledger file of {@code recordBytes}-byte records (replacing any file there). */
    public static LedgerFile create(Path file, int recordBytes) {
        if (recordBytes < 1) {
            throw new IllegalArgumentException("records of " + recordBytes + " bytes");
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return new LedgerFile(file, recordBytes, FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** A ledger in a temporary file, deleted when closed: for a ledger used outside a run's directory. */
    public static LedgerFile temporary(String name, int recordBytes) {
        try {
            Path file = Files.createTempFile("gauntlet-" + name + "-", ".ledger");
            file.toFile().deleteOnExit();
            return create(file, recordBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary ledger: " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** A buffer for one or more records to {@link #append}: {@code records} records long. */
    public ByteBuffer buffer(int records) {
        return ByteBuffer.allocate(records * recordBytes);
    }

    /**
     * Appends the buffer's records, from its position to its limit (whole records only), in one write.
     *
     * @throws UncheckedIOException when the file cannot be written (a full disk): the ledger can no longer prove
     *                              anything, so the run should stop rather than go on unrecorded
     */
    public void append(ByteBuffer whole) {
        int n = whole.remaining();
        if (n % recordBytes != 0) {
            throw new IllegalArgumentException(n + " bytes is not a whole number of " + recordBytes + "-byte records");
        }
        synchronized (this) {
            try {
                while (whole.hasRemaining()) {
                    channel.write(whole);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the ledger " + file + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public synchronized void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** Closes the file and deletes it (a temporary ledger, or one a new run replaces). */
    public void delete() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** What is done with each record read back; may throw what its work throws. */
    @FunctionalInterface
    public interface Each<E extends Exception> {
        /** {@code record} is positioned at the record's first byte, valid until this returns. */
        void accept(ByteBuffer record) throws E;
    }

    /** Each whole record of the ledger file, in the order they were appended, read from disk as a stream. */
    public static <E extends Exception> void forEach(Path file, int recordBytes, Each<E> each) throws E {
        try (Reader records = open(file, recordBytes)) {
            for (ByteBuffer b = records.next(); b != null; b = records.next()) {
                each.accept(b);
            }
        }
    }

    /**
     * The records of a ledger file, whole ones only (a last record cut short by a killed writer is left out).
     */
    public static Reader open(Path file, int recordBytes) {
        try {
            return new Reader(FileChannel.open(file, StandardOpenOption.READ), recordBytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ledger " + file + ": " + e.getMessage(), e);
        }
    }

    /** Records pulled one at a time, read from the file 256 KiB at a time. */
    public static final class Reader implements AutoCloseable {

        private final FileChannel channel;
        private final int recordBytes;
        private final long whole;
        private final ByteBuffer chunk;
        private long read;

        private Reader(FileChannel channel, int recordBytes) throws IOException {
            this.channel = channel;
            this.recordBytes = recordBytes;
            long size = channel.size();
            this.whole = size / recordBytes;
            this.chunk = ByteBuffer.allocate(Math.max(1, (1 << 18) / recordBytes) * recordBytes);
            chunk.flip();
        }

        /**
         * The next record: a buffer positioned at its first byte, {@code recordBytes} remaining (valid until the next
         * call); null after the last.
         */
        public ByteBuffer next() {
            if (read == whole) {
                return null;
            }
            if (!chunk.hasRemaining()) {
                refill();
            }
            ByteBuffer record = chunk.slice();
            record.limit(recordBytes);
            chunk.position(chunk.position() + recordBytes);
            read++;
            return record;
        }

        private void refill() {
            chunk.clear();
            long wanted = Math.min(chunk.capacity(), (whole - read) * recordBytes);
            chunk.limit((int) wanted);
            try {
                while (chunk.hasRemaining()) {
                    if (channel.read(chunk) < 0) {
                        throw new IOException("the file ended early");
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the ledger: " + e.getMessage(), e);
            }
            chunk.flip();
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

package dev.gauntlet.rocksdb.fill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.WriteOptions;

/**
 * A freshly created RocksDB database set up for a fill: {@link Options} and {@link WriteOptions} are built
 * once here and shared by every writer (building {@code WriteOptions} per put would cost a JNI allocation
 * each time). Every native handle is closed by {@link #close}, the database first.
 *
 * <p>Thread safety: {@link #db()} and {@link #writeOptions()} may be used by many threads at once (RocksDB
 * is thread-safe and the write options are only read); {@link #close} once, after the writers stopped.
 */
public final class RocksDbStore implements AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    private final Path dir;
    private final Statistics statistics;
    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private boolean closed;

    private RocksDbStore(Path dir, FillSettings settings) throws RocksDBException {
        this.dir = dir;
        this.statistics = settings.statistics() ? new Statistics() : null;
        Options o = new Options()
                .setCreateIfMissing(true)
                .setErrorIfExists(true)
                .setCompressionType(settings.compression().type())
                .setManualWalFlush(settings.wal().manualWalFlush());
        if (statistics != null) {
            o.setStatistics(statistics);
        }
        this.options = o;
        this.writeOptions = new WriteOptions().setSync(settings.wal().sync()).setDisableWAL(settings.wal().disableWal());
        RocksDB opened;
        try {
            opened = RocksDB.open(options, dir.toString());
        } catch (RocksDBException e) {
            writeOptions.close();
            options.close();
            if (statistics != null) {
                statistics.close();
            }
            throw e;
        }
        this.db = opened;
    }

    /** Creates a new database in {@code dir}, which must not exist or be empty: every fill starts fresh. */
    public static RocksDbStore create(Path dir, FillSettings settings) {
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    if (s.findAny().isPresent()) {
                        throw new IllegalStateException("database directory " + dir + " is not empty; a fill starts from a fresh database");
                    }
                }
            }
            Files.createDirectories(dir);
            return new RocksDbStore(dir, settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create database directory " + dir, e);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    public RocksDB db() {
        return db;
    }

    public WriteOptions writeOptions() {
        return writeOptions;
    }

    public Path dir() {
        return dir;
    }

    /** {@code FlushWAL}: hands RocksDB's WAL buffer to the OS, and fsyncs it when {@code sync}. */
    public void flushWal(boolean sync) throws RocksDBException {
        db.flushWal(sync);
    }

    /** RocksDB's counters so far, or {@link WalStatistics#NONE} when statistics are off. */
    public WalStatistics walStatistics() {
        return statistics == null ? WalStatistics.NONE : WalStatistics.read(statistics);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        db.close();
        writeOptions.close();
        options.close();
        if (statistics != null) {
            statistics.close();
        }
    }

    /** Reopens the database in {@code dir} (recovering its WAL) and counts its keys. */
    public static long countKeys(Path dir) {
        try (Options o = new Options().setCreateIfMissing(false);
             RocksDB db = RocksDB.open(o, dir.toString());
             ReadOptions read = new ReadOptions().setFillCache(false);
             RocksIterator it = db.newIterator(read)) {
            long n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
            it.status();
            return n;
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot reopen RocksDB in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Deletes a database directory and everything in it. */
    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}

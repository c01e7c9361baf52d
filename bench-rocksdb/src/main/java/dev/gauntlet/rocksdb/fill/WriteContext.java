package dev.gauntlet.rocksdb.fill;

import java.nio.ByteBuffer;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One writer's session: its own direct key buffer and value cursor, and the store's shared write options.
 * A put passes direct buffers, so RocksJava hands RocksDB their addresses instead of copying byte arrays
 * through JNI. Not thread-safe: the runner serves a client from one thread at a time.
 */
public final class WriteContext {

    private final RocksDB db;
    private final WriteOptions writeOptions;
    private final DbBenchKey key;
    private final CompressibleValues.Cursor values;

    public WriteContext(RocksDbStore store, FillSettings settings, CompressibleValues pool) {
        this.db = store.db();
        this.writeOptions = store.writeOptions();
        this.key = new DbBenchKey(settings.keySize());
        this.values = pool.cursor(settings.valueSize());
    }

    public void put(long keyNumber) throws RocksDBException {
        ByteBuffer k = key.of(keyNumber);
        db.put(writeOptions, k, values.next());
    }

    /** {@code FlushWAL(false)}: hands the WAL buffer to the OS without an fsync. */
    public void flushWal() throws RocksDBException {
        db.flushWal(false);
    }
}

package dev.gauntlet.rocksdb.jmh;

import dev.gauntlet.rocksdb.fill.CompressibleValues;
import dev.gauntlet.rocksdb.fill.FillOrder;
import dev.gauntlet.rocksdb.fill.FillSettings;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import dev.gauntlet.rocksdb.fill.WalStatistics;
import dev.gauntlet.rocksdb.fill.WriteContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.rocksdb.RocksDBException;

/**
 * One fill on a database created for it, for the JMH benchmarks: open (untimed), {@link #fill} (timed),
 * {@link #close} (untimed: closes every native handle and deletes the directory). One thread, like db_bench's
 * default; keys and values as db_bench makes them.
 */
final class FreshFill implements AutoCloseable {

    static final int KEY_SIZE = 16;
    static final int VALUE_SIZE = 100;

    private static final CompressibleValues VALUES = new CompressibleValues(VALUE_SIZE, 0.5, 301);

    private final FillSettings settings;
    private final Path dir;
    private final RocksDbStore store;
    private final WriteContext writer;
    private final SplittableRandom random;

    FreshFill(FillSettings settings, long seed) {
        this.settings = settings;
        try {
            this.dir = Files.createTempDirectory("gauntlet-jmh-rocksdb");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.store = RocksDbStore.create(dir.resolve("db"), settings);
        this.writer = new WriteContext(store, settings, VALUES);
        this.random = new SplittableRandom(seed);
    }

    /** All {@code num} puts, in the settings' order; returns RocksDB's statistics right after the last. */
    WalStatistics fill() throws RocksDBException {
        long num = settings.num();
        if (settings.order() == FillOrder.SEQ) {
            for (long k = 0; k < num; k++) {
                writer.put(k);
            }
        } else {
            for (long i = 0; i < num; i++) {
                writer.put(random.nextLong(num));
            }
        }
        return store.walStatistics();
    }

    @Override
    public void close() {
        store.close();
        RocksDbStore.delete(dir);
    }
}

package dev.gauntlet.rocksdb.durability;

import dev.gauntlet.rocksdb.fill.CompressibleValues;
import dev.gauntlet.rocksdb.fill.FillOrder;
import dev.gauntlet.rocksdb.fill.FillSettings;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import dev.gauntlet.rocksdb.fill.WalSettings;
import dev.gauntlet.rocksdb.fill.WriteContext;
import java.nio.file.Path;

/**
 * The child process of a crash trial: writes keys 0..N-1 to a fresh database, optionally calls
 * {@code FlushWAL}, prints {@value #WRITTEN}, and waits to be killed. It never closes the database: if its
 * parent goes away (stdin reaches end of file) it halts the JVM without running shutdown hooks, so nothing
 * but what already reached the OS survives, as after a crash.
 *
 * <p>Arguments: {@code DIR NUM CASE}, with CASE a {@link DurabilityCase} name.
 */
public final class CrashWriter {

    public static final String WRITTEN = "written";

    private CrashWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long num = Long.parseLong(args[1]);
        DurabilityCase c = DurabilityCase.valueOf(args[2]);
        FillSettings settings = FillSettings.defaults(FillOrder.SEQ, num,
                WalSettings.autoFlush().withManualWalFlush(c.manualWalFlush()));
        RocksDbStore store = RocksDbStore.create(dir, settings);
        WriteContext writer = new WriteContext(store, settings, new CompressibleValues(settings.valueSize(), 0.5, 301));
        for (long k = 0; k < num; k++) {
            writer.put(k);
        }
        switch (c.beforeKill()) {
            case FLUSH_NO_SYNC -> store.flushWal(false);
            case FLUSH_AND_SYNC -> store.flushWal(true);
            case NOTHING -> { }
        }
        System.out.println(WRITTEN + " " + num);
        System.out.flush();
        while (System.in.read() >= 0) {
            // Wait for SIGKILL; end of input means the parent is gone.
        }
        Runtime.getRuntime().halt(3);
    }
}

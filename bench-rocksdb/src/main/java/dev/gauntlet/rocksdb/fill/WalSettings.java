package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;

/**
 * How a fill uses the write-ahead log: {@code sync} (fsync the WAL on every write), {@code manualWalFlush}
 * (keep WAL records in RocksDB's buffer until it fills or {@code FlushWAL} is called, instead of handing each
 * to the OS at once), or {@code disableWal} (no WAL: the lower bound of what the WAL costs).
 */
public record WalSettings(boolean sync, boolean manualWalFlush, boolean disableWal) {

    public WalSettings {
        if (disableWal && sync) {
            throw new BadInputException("--disable-wal cannot be combined with --sync: a synced write needs the WAL "
                    + "(RocksDB rejects it); drop one of them");
        }
        if (disableWal && manualWalFlush) {
            throw new BadInputException("--disable-wal makes --manual-wal-flush meaningless (there is no WAL to "
                    + "flush); drop one of them");
        }
    }

    /** A short label for results and tables, e.g. {@code sync=false,manual_wal_flush=true} or {@code disableWAL}. */
    public String label() {
        if (disableWal) {
            return "disableWAL";
        }
        return "sync=" + sync + ",manual_wal_flush=" + manualWalFlush;
    }
}

package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;

/**
 * How a fill uses the write-ahead log: {@code sync} (fsync the WAL on every write), {@code manualWalFlush}
 * (keep WAL records in RocksDB's buffer until it fills or {@code FlushWAL} is called, instead of handing each
 * to the OS at once), or {@code disableWal} (no WAL: the lower bound of what the WAL costs).
 *
 * <p>Made by name: {@link #autoFlush()}, {@link #manualFlush()} or {@link #disabled()}, then {@link #synced()} for
 * an fsync on every write, or from a command line's flags one by one ({@code autoFlush().withSync(sync)...}).
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

    /** RocksDB's default: each write's WAL record handed to the OS at once, not synced. */
    public static WalSettings autoFlush() {
        return new WalSettings(false, false, false);
    }

    /** WAL records kept in RocksDB's buffer until it fills or {@code FlushWAL} is called ({@code manual_wal_flush}). */
    public static WalSettings manualFlush() {
        return autoFlush().withManualWalFlush(true);
    }

    /** No WAL at all ({@code disableWAL}): the lower bound of what the WAL costs. */
    public static WalSettings disabled() {
        return autoFlush().withWalDisabled(true);
    }

    /** The same, with the WAL fsynced on every write. */
    public WalSettings synced() {
        return withSync(true);
    }

    /**
     * The same, fsyncing the WAL on every write or not.
     *
     * @throws BadInputException when {@code sync} and the WAL is disabled
     */
    public WalSettings withSync(boolean sync) {
        return new WalSettings(sync, manualWalFlush, disableWal);
    }

    /**
     * The same, keeping WAL records in RocksDB's buffer or not.
     *
     * @throws BadInputException when {@code manualWalFlush} and the WAL is disabled
     */
    public WalSettings withManualWalFlush(boolean manualWalFlush) {
        return new WalSettings(sync, manualWalFlush, disableWal);
    }

    /**
     * The same, with or without the WAL.
     *
     * @throws BadInputException when {@code disableWal} and the WAL is synced or flushed manually
     */
    public WalSettings withWalDisabled(boolean disableWal) {
        return new WalSettings(sync, manualWalFlush, disableWal);
    }

    /** A short label for results and tables, e.g. {@code sync=false,manual_wal_flush=true} or {@code disableWAL}. */
    public String label() {
        if (disableWal) {
            return "disableWAL";
        }
        return "sync=" + sync + ",manual_wal_flush=" + manualWalFlush;
    }
}

package dev.gauntlet.rocksdb.durability;

/** One way of writing before a process is killed, and what the writer did just before the kill. */
public enum DurabilityCase {
    /** manual_wal_flush=true, no FlushWAL: what is still in RocksDB's WAL buffer dies with the process. */
    MANUAL_NO_FLUSH(true, BeforeKill.NOTHING, "manual_wal_flush=true, no FlushWAL"),
    /** manual_wal_flush=true, then FlushWAL(false): the buffer reaches the OS (survives a process kill, not a power loss). */
    MANUAL_FLUSH_WAL(true, BeforeKill.FLUSH_NO_SYNC, "manual_wal_flush=true, FlushWAL(false)"),
    /** manual_wal_flush=true, then FlushWAL(true): the buffer reaches the OS and is fsynced. */
    MANUAL_FLUSH_WAL_SYNC(true, BeforeKill.FLUSH_AND_SYNC, "manual_wal_flush=true, FlushWAL(true)"),
    /** manual_wal_flush=false (the default): every put hands its WAL record to the OS at once. */
    AUTOMATIC(false, BeforeKill.NOTHING, "manual_wal_flush=false (default), no FlushWAL");

    /** What the writer calls after its last put. */
    public enum BeforeKill { NOTHING, FLUSH_NO_SYNC, FLUSH_AND_SYNC }

    private final boolean manualWalFlush;
    private final BeforeKill beforeKill;
    private final String description;

    DurabilityCase(boolean manualWalFlush, BeforeKill beforeKill, String description) {
        this.manualWalFlush = manualWalFlush;
        this.beforeKill = beforeKill;
        this.description = description;
    }

    public boolean manualWalFlush() {
        return manualWalFlush;
    }

    public BeforeKill beforeKill() {
        return beforeKill;
    }

    public String description() {
        return description;
    }
}

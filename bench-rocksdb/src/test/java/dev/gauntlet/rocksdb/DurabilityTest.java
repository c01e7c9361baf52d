package dev.gauntlet.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.rocksdb.durability.CrashTrial;
import dev.gauntlet.rocksdb.durability.DurabilityCase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manual-flush crash test: a child JVM is SIGKILLed after writing. Without FlushWAL the tail of the WAL
 * still in RocksDB's buffer is lost; with FlushWAL(true) (and with automatic flush) every key survives.
 */
class DurabilityTest {

    /**
     * 30,000 puts make about 3.9 MB of WAL (131 bytes each): what filled RocksDB's buffer reached the OS, the tail
     * still in it (at most writable_file_max_buffer_size, 1 MiB, about 8,000 puts) dies with the process.
     */
    private static final long NUM = 30_000;

    @TempDir
    Path tmp;

    @Test
    void manualFlushWithoutFlushWalLosesTheBufferedTail() throws Exception {
        CrashTrial.Outcome o = CrashTrial.run(DurabilityCase.MANUAL_NO_FLUSH, NUM, tmp.resolve("db"));
        assertTrue(o.lost() > 0, "expected lost keys, survived " + o.survived());
        assertTrue(o.survived() > 0, "full buffers were written before the kill");
        assertTrue(o.lost() < 10_000, "at most about one 1 MiB buffer is lost, lost " + o.lost());
    }

    @Test
    void flushWalTrueKeepsEveryKey() throws Exception {
        CrashTrial.Outcome o = CrashTrial.run(DurabilityCase.MANUAL_FLUSH_WAL_SYNC, NUM, tmp.resolve("db"));
        assertEquals(NUM, o.survived());
    }

    @Test
    void automaticFlushKeepsEveryKeyThroughAProcessKill() throws Exception {
        CrashTrial.Outcome o = CrashTrial.run(DurabilityCase.AUTOMATIC, NUM, tmp.resolve("db"));
        assertEquals(NUM, o.survived());
    }

    @Test
    void commandPrintsTheTable() {
        Cli cli = Cli.run("durability", "--num", "20000", "--db", tmp.resolve("dur").toString(), "--out",
                tmp.resolve("table.md").toString());
        assertEquals(0, cli.exitCode, cli.err);
    }
}

package dev.gauntlet.rocksdb.fsync;

import dev.gauntlet.core.metrics.LatencyRecorder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.HdrHistogram.Histogram;

/**
 * The latency of what a synced RocksDB write waits for: append a WAL-record-sized block to a file and
 * {@code fdatasync} it ({@code FileChannel.force(false)}; RocksDB syncs its WAL with fdatasync unless
 * {@code use_fsync} is set). One thread, back to back, on the file system of the given directory.
 * It does not measure RocksDB's own work around the sync.
 */
public final class FsyncProbe {

    private FsyncProbe() {
    }

    /** Nanosecond latencies of {@code count} append+fdatasync pairs (after {@code warmup} unrecorded ones). */
    public static Histogram measure(Path dir, int count, int warmup, int bytes, boolean metadata) throws IOException {
        Files.createDirectories(dir);
        Path file = Files.createTempFile(dir, "fsync-probe", ".log");
        Histogram h = LatencyRecorder.newHistogram();
        ByteBuffer block = ByteBuffer.allocateDirect(bytes);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            for (int i = 0; i < warmup + count; i++) {
                block.clear();
                long start = System.nanoTime();
                while (block.hasRemaining()) {
                    ch.write(block);
                }
                ch.force(metadata);
                long nanos = System.nanoTime() - start;
                if (i >= warmup) {
                    h.recordValue(Math.max(1, nanos));
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        return h;
    }
}

package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.cli.BadInputException;

/**
 * One fill, as db_bench would be told it: {@code num} puts in total, split across {@code threads}, of
 * {@code keySize}-byte keys and {@code valueSize}-byte values that compress to {@code compressionRatio}.
 */
public record FillSettings(FillOrder order, long num, int keySize, int valueSize, int threads, WalSettings wal,
                           FlushWalPolicy flushWal, Compression compression, double compressionRatio,
                           boolean statistics) {

    public FillSettings {
        if (num < 1) {
            throw new BadInputException("--num must be at least 1 (got " + num + ")");
        }
        if (threads < 1) {
            throw new BadInputException("--threads must be at least 1 (got " + threads + ")");
        }
        if (threads > num) {
            throw new BadInputException("--threads " + threads + " is more than --num " + num
                    + ": every thread needs at least one put");
        }
        if (keySize < 1 || keySize > 1 << 20) {
            throw new BadInputException("--key-size must be between 1 and 1048576 bytes (got " + keySize + ")");
        }
        if (valueSize < 1 || valueSize > 1 << 24) {
            throw new BadInputException("--value-size must be between 1 and 16777216 bytes (got " + valueSize + ")");
        }
        if (!(compressionRatio > 0 && compressionRatio <= 1)) {
            throw new BadInputException("--compression-ratio must be in (0, 1] (got " + compressionRatio + ")");
        }
    }

    /** Defaults of db_bench: 16-byte keys, 100-byte values at ratio 0.5, one thread, no compression. */
    public static FillSettings defaults(FillOrder order, long num, WalSettings wal) {
        return new FillSettings(order, num, 16, 100, 1, wal, FlushWalPolicy.NEVER, Compression.NONE, 0.5, true);
    }

    public FillSettings withOrder(FillOrder newOrder) {
        return new FillSettings(newOrder, num, keySize, valueSize, threads, wal, flushWal, compression,
                compressionRatio, statistics);
    }



    /** Puts done by thread {@code index}: an even share of {@code num}, the first {@code num % threads} one more. */
    public long putsOf(int index) {
        return num / threads + (index < num % threads ? 1 : 0);
    }

    /** The first key a thread writes in a sequential fill: threads take consecutive ranges of keys. */
    public long firstKeyOf(int index) {
        long base = num / threads;
        long extra = num % threads;
        return index * base + Math.min(index, extra);
    }

    /** Bytes one put writes, as db_bench counts them for MB/s. */
    public int bytesPerPut() {
        return keySize + valueSize;
    }
}

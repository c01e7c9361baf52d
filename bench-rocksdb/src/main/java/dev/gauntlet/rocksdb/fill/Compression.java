package dev.gauntlet.rocksdb.fill;

import org.rocksdb.CompressionType;

/** The block compression of SST files, spelled as db_bench's {@code --compression_type}. */
public enum Compression {
    NONE(CompressionType.NO_COMPRESSION),
    SNAPPY(CompressionType.SNAPPY_COMPRESSION),
    LZ4(CompressionType.LZ4_COMPRESSION),
    ZSTD(CompressionType.ZSTD_COMPRESSION);

    private final CompressionType type;

    Compression(CompressionType type) {
        this.type = type;
    }

    public CompressionType type() {
        return type;
    }

    /** The value of db_bench's {@code --compression_type}. */
    public String dbBenchName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

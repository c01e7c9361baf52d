package dev.gauntlet.rocksdb.fill;

import java.nio.ByteBuffer;

/**
 * A key as db_bench makes it ({@code GenerateKeyFromInt}): the key number's low {@code min(keySize, 8)} bytes,
 * big-endian, padded with ASCII {@code '0'} to {@code keySize}. Sequential key numbers therefore sort in
 * order, which is what makes fillseq sequential for RocksDB.
 *
 * <p>Writes into one direct buffer it owns, so a put hands RocksDB the key without a JNI copy. Not
 * thread-safe: one per writing client.
 */
public final class DbBenchKey {

    private final int keySize;
    private final int numberBytes;
    private final ByteBuffer buffer;

    public DbBenchKey(int keySize) {
        this.keySize = keySize;
        this.numberBytes = Math.min(keySize, 8);
        this.buffer = ByteBuffer.allocateDirect(keySize);
        for (int i = numberBytes; i < keySize; i++) {
            buffer.put(i, (byte) '0');
        }
    }

    /** The buffer holding key {@code number}, positioned at 0 with {@code keySize} bytes remaining. */
    public ByteBuffer of(long number) {
        if (numberBytes == Long.BYTES) {
            buffer.putLong(0, number); // big-endian, as the buffer's default order: one store, not eight
        } else {
            for (int i = 0; i < numberBytes; i++) {
                buffer.put(i, (byte) (number >>> ((numberBytes - i - 1) << 3)));
            }
        }
        buffer.limit(keySize).position(0);
        return buffer;
    }

    /** The same key as a new array, for reads and tests. */
    public static byte[] bytes(long number, int keySize) {
        ByteBuffer b = new DbBenchKey(keySize).of(number);
        byte[] out = new byte[keySize];
        b.get(out);
        return out;
    }

    /** The key number encoded in {@code key}'s first bytes (the inverse of {@link #of} for keys of 8+ bytes). */
    public static long number(byte[] key) {
        long n = 0;
        for (int i = 0; i < Math.min(key.length, 8); i++) {
            n = (n << 8) | (key[i] & 0xFF);
        }
        return n;
    }
}

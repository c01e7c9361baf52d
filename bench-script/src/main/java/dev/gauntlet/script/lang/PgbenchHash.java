package dev.gauntlet.script.lang;

/**
 * pgbench 15's hash functions and pseudo-random permutation, bit for bit: {@code hash_murmur2} (64-bit MurmurHash2
 * of one 8-byte value), {@code hash_fnv1a} (FNV-1a over the value's 8 bytes, least significant first) and
 * {@code permute} (six rounds of seeded multiply, xor and rotate on overlapping halves, plus a random offset).
 */
public final class PgbenchHash {

    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long MURMUR_MULTIPLIER = 0xc6a4a7935bd1e995L;
    private static final long MURMUR_MULTIPLIER_TIMES_8 = 0x35253c9ade8f4ca8L;
    private static final int MURMUR_SHIFT = 47;
    private static final int PERMUTE_ROUNDS = 6;

    private PgbenchHash() {
    }

    /**
     * {@code hash_murmur2(value, seed)}, which {@code hash(value, seed)} also is.
     *
     * @param value the value
     * @param seed  the seed
     * @return the hash
     */
    public static long murmur2(long value, long seed) {
        long result = seed ^ MURMUR_MULTIPLIER_TIMES_8;
        long k = value * MURMUR_MULTIPLIER;
        k ^= k >>> MURMUR_SHIFT;
        k *= MURMUR_MULTIPLIER;
        result ^= k;
        result *= MURMUR_MULTIPLIER;
        result ^= result >>> MURMUR_SHIFT;
        result *= MURMUR_MULTIPLIER;
        result ^= result >>> MURMUR_SHIFT;
        return result;
    }

    /**
     * {@code hash_fnv1a(value, seed)}.
     *
     * @param value the value
     * @param seed  the seed
     * @return the hash
     */
    public static long fnv1a(long value, long seed) {
        long result = FNV_OFFSET_BASIS ^ seed;
        long rest = value;
        for (int i = 0; i < Long.BYTES; i++) {
            result ^= rest & 0xff;
            result *= FNV_PRIME;
            rest >>= 8;
        }
        return result;
    }

    /**
     * {@code permute(value, size, seed)}: where {@code value mod size} goes in a pseudo-random permutation of
     * {@code [0, size)} chosen by the seed; 0 when size is below 2. The value is taken modulo the size as an
     * unsigned integer (pgbench's arithmetic), so negative values wrap as pgbench's do.
     *
     * @param value the value to place
     * @param size  the size of the permuted range ({@code permute()} refuses sizes below 1 before calling this)
     * @param seed  the seed choosing the permutation
     * @return the permuted value, in {@code [0, size)}
     */
    public static long permute(long value, long size, long seed) {
        if (size < 2) {
            return 0;
        }
        PgbenchRandom random = PgbenchRandom.seeded(seed);
        long v = Long.remainderUnsigned(value, size);
        int maskLength = 63 - Long.numberOfLeadingZeros(size);
        long mask = (1L << maskLength) - 1;
        for (int round = 0; round < PERMUTE_ROUNDS; round++) {
            long multiplier = (random.nextLong() & mask) | 1;
            long addend = random.nextLong() & mask;
            if (Long.compareUnsigned(v, mask) <= 0) {
                v = ((v * multiplier) ^ addend) & mask;
                v = ((v << 1) & mask) | (v >>> (maskLength - 1));
            }
            multiplier = (random.nextLong() & mask) | 1;
            addend = random.nextLong() & mask;
            long t = size - 1 - v;
            if (Long.compareUnsigned(t, mask) <= 0) {
                t = ((t * multiplier) ^ addend) & mask;
                t = ((t << 1) & mask) | (t >>> (maskLength - 1));
                v = size - 1 - t;
            }
            long offset = random.nextLong(0, size - 1);
            v = Long.remainderUnsigned(v + offset, size);
        }
        return v;
    }
}

package dev.gauntlet.rocksdb.fill;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Values like db_bench's {@code RandomGenerator}: a 1 MiB pool (or one value, if larger) built from 100-byte
 * pieces, each a random printable string of {@code 100 * ratio} bytes repeated to 100 bytes, so values
 * compress to about {@code ratio} of their size. Values are consecutive windows of the pool, wrapping around.
 *
 * <p>The pool is one direct buffer, shared read-only between threads; each {@link Cursor} is a private view
 * of it, so a value reaches RocksDB without a copy.
 */
public final class CompressibleValues {

    private static final int POOL_BYTES = 1 << 20;
    private static final int PIECE = 100;

    private final ByteBuffer pool;

    public CompressibleValues(int valueSize, double ratio, long seed) {
        int size = Math.max(POOL_BYTES, valueSize);
        int pieces = (size + PIECE - 1) / PIECE;
        ByteBuffer b = ByteBuffer.allocateDirect(pieces * PIECE);
        SplittableRandom random = new SplittableRandom(seed);
        int raw = Math.max(1, (int) (PIECE * ratio));
        byte[] piece = new byte[PIECE];
        for (int p = 0; p < pieces; p++) {
            for (int i = 0; i < raw; i++) {
                piece[i] = (byte) (' ' + random.nextInt(95));
            }
            for (int i = raw; i < PIECE; i++) {
                piece[i] = piece[i % raw];
            }
            b.put(piece);
        }
        b.clear();
        this.pool = b;
    }

    /** A reader of values of one size; not thread-safe (one per writing client). */
    public Cursor cursor(int valueSize) {
        return new Cursor(pool.duplicate(), valueSize);
    }

    /** Hands out successive values as windows of the shared pool. */
    public static final class Cursor {
        private final ByteBuffer view;
        private final int valueSize;
        private int position;

        Cursor(ByteBuffer view, int valueSize) {
            this.view = view;
            this.valueSize = valueSize;
        }

        /** The next value: the view, positioned on {@code valueSize} bytes. */
        public ByteBuffer next() {
            if (position + valueSize > view.capacity()) {
                position = 0;
            }
            view.limit(position + valueSize).position(position);
            position += valueSize;
            return view;
        }
    }
}

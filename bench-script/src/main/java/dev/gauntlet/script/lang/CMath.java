package dev.gauntlet.script.lang;

/** The few places where C's arithmetic, as pgbench gets it from glibc on x86-64, differs from Java's. */
final class CMath {

    private CMath() {
    }

    /**
     * C's {@code pow}: as {@link Math#pow}, except that {@code pow(1, y)} is 1 and {@code pow(-1, ±inf)} is 1 even
     * for a NaN or infinite {@code y} (Java gives NaN).
     *
     * @param x the base
     * @param y the exponent
     * @return x to the power y
     */
    static double pow(double x, double y) {
        if (x == 1.0 || y == 0.0 || x == -1.0 && Double.isInfinite(y)) {
            return 1.0;
        }
        return Math.pow(x, y);
    }

    /**
     * C's conversion of a double to a 64-bit integer as x86-64 does it ({@code cvttsd2si}): truncation toward zero,
     * and -9223372036854775808 (the "integer indefinite") for NaN or a value out of range, where Java gives 0 or
     * saturates.
     *
     * @param d a double
     * @return the integer
     */
    static long truncate(double d) {
        if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }
}

package dev.gauntlet.core.result;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Histograms in result files: HdrHistogram's compressed encoding, base64. Lossless, so merges are exact. */
public final class HistogramCodec {

    private HistogramCodec() {
    }

    public static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
    }

    /**
     * The sum of encoded histograms (null entries skipped): percentiles of several operations or processes are read
     * from it, never averaged. It auto-resizes, so inputs recorded with different ranges add without overflow, and
     * keeps the 3 significant digits every Gauntlet histogram is recorded with.
     */
    public static Histogram sum(java.util.Collection<String> encoded) {
        Histogram total = new Histogram(3);
        for (String e : encoded) {
            if (e != null) {
                total.add(decode(e));
            }
        }
        return total;
    }

    public static Histogram decode(String base64) {
        try {
            byte[] bytes = Base64.getDecoder().decode(base64);
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException | IllegalArgumentException | java.nio.BufferUnderflowException e) {
            throw new ResultFormatException("an encoded histogram is corrupt (" + e.getMessage() + ")");
        }
    }
}

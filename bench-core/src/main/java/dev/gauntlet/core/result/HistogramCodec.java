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

    public static Histogram decode(String base64) {
        try {
            byte[] bytes = Base64.getDecoder().decode(base64);
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException | IllegalArgumentException | java.nio.BufferUnderflowException e) {
            throw new ResultFormatException("an encoded histogram is corrupt (" + e.getMessage() + ")");
        }
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.HistogramCodec;
import java.util.Collection;
import org.HdrHistogram.Histogram;

/**
 * Sums of encoded histograms. Percentiles of several operations or processes are read from the sum, never
 * averaged. The sum auto-resizes, so inputs recorded with different ranges add without overflow, and keeps
 * 3 significant digits, the precision every Gauntlet histogram is recorded with.
 */
final class Histograms {

    static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {
    }

    static Histogram empty() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    /** The sum of the encoded histograms; null entries are skipped. */
    static Histogram sum(Collection<String> encoded) {
        return HistogramCodec.sum(encoded);
    }
}

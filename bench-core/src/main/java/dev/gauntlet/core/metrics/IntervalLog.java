package dev.gauntlet.core.metrics;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The run's interval histograms in HdrHistogram's log format ({@code .hlog}), one line per operation and
 * interval, tagged with the operation's name, so HistogramLogProcessor and HistogramLogAnalyzer read it.
 * Values are nanoseconds; the log's max column is written in milliseconds (unit ratio 1e6).
 *
 * <p>Thread safety: one writer thread (the reporter).
 */
public final class IntervalLog implements AutoCloseable {

    public static final String FILE_NAME = "intervals.hlog";
    private static final double NANOS_PER_MS = 1_000_000.0;

    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final long baseTimeMillis;

    public IntervalLog(Path file, long baseTimeMillis, String comment) throws IOException {
        this.out = new PrintStream(new FileOutputStream(file.toFile()), false, java.nio.charset.StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(out);
        this.baseTimeMillis = baseTimeMillis;
        writer.outputComment(comment);
        writer.outputLogFormatVersion();
        writer.outputStartTime(baseTimeMillis);
        writer.setBaseTime(baseTimeMillis);
        writer.outputLegend();
    }

    /** Tags may not contain commas or spaces in this format, so they are replaced. */
    public static String tag(String name) {
        return name.replaceAll("[,\\s]", "_");
    }

    public void write(String tag, Histogram interval, long startMillis, long endMillis) {
        if (interval.getTotalCount() == 0) {
            return;
        }
        interval.setTag(tag(tag));
        writer.outputIntervalHistogram((startMillis - baseTimeMillis) / 1000.0,
                (endMillis - baseTimeMillis) / 1000.0, interval, NANOS_PER_MS);
        interval.setTag(null);
    }

    /** A comment line ({@code #...}), which log readers skip: marks events such as the end of the warm-up. */
    public void comment(String text) {
        writer.outputComment(text);
    }

    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }
}

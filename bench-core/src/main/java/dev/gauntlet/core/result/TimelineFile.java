package dev.gauntlet.core.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * A run's every reporting interval at full resolution, {@value #NAME} beside {@code result.json}: JSON Lines, one
 * {@link Interval} per line exactly as {@code result.json} writes one (histograms included), in the order they
 * closed, gzip-compressed. Written as the run goes, each line flushed through the compressor as its interval closes,
 * so the file reads up to the last closed interval at any moment ({@code zcat timeline.jsonl.gz | tail -1}) and the
 * run keeps none of them in memory; a file cut short (the run killed) reads up to its last whole line. The result
 * names it ({@link FullTimeline}); reports that need every interval (the dashboard, recovery times) read it through
 * {@link Timeline#of(RunResult, Path)}.
 */
public final class TimelineFile {

    public static final String NAME = "timeline.jsonl.gz";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TimelineFile() {
    }

    /** A new timeline file (replacing any old one), written interval by interval. */
    public static Writer create(Path file) throws IOException {
        return new Writer(file);
    }

    /**
     * Each interval of the file in order; the intervals of a file cut short, up to its last whole line.
     *
     * @throws ResultFormatException naming the file when it cannot be read or a line is not an interval
     */
    public static void read(Path file, Consumer<? super Interval> each) {
        try (Reader intervals = open(file)) {
            while (intervals.hasNext()) {
                each.accept(intervals.next());
            }
        }
    }

    /**
     * The file's intervals, read as they are pulled (one line ahead: a last line cut short is not an interval).
     *
     * @throws ResultFormatException naming the file when it cannot be read or a line is not an interval
     */
    public static Reader open(Path file) {
        try {
            return new Reader(file);
        } catch (IOException e) {
            throw new ResultFormatException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** A timeline file's intervals, pulled one at a time. */
    public static final class Reader implements Timeline.Cursor {

        private final Path file;
        private final BufferedReader in;
        private long line;
        /** The line after {@link #next}'s, not parsed yet; null at the end. */
        private String text;
        private Interval next;

        private Reader(Path file) throws IOException {
            this.file = file;
            this.in = new BufferedReader(new InputStreamReader(new EndsWhereCut(
                    new GZIPInputStream(Files.newInputStream(file), 1 << 16)), StandardCharsets.UTF_8), 1 << 16);
            try {
                this.text = in.readLine();
                advance();
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        }

        private void advance() throws IOException {
            next = null;
            while (next == null && text != null) {
                line++;
                String after = in.readLine();
                if (!text.isBlank()) {
                    next = parse(text, file, line, after == null);
                }
                text = after;
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Interval next() {
            if (next == null) {
                throw new java.util.NoSuchElementException(file + ": no more intervals");
            }
            Interval interval = next;
            try {
                advance();
            } catch (IOException e) {
                throw new ResultFormatException(file + ": cannot read (" + e.getMessage() + ")");
            }
            return interval;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * A compressed stream that ends, as any stream does, where it was cut short (a file still being written, or one
     * whose run was killed), so every byte decompressed before the cut is read.
     */
    private static final class EndsWhereCut extends FilterInputStream {

        EndsWhereCut(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (EOFException | ZipException cutShort) {
                return -1;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (EOFException | ZipException cutShort) {
                return -1;
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return super.available();
            } catch (EOFException | ZipException cutShort) {
                return 0;
            }
        }
    }

    /** The interval on a line; null for a last line cut short (the run killed while writing it). */
    private static Interval parse(String text, Path file, long line, boolean last) {
        try {
            return MAPPER.readValue(text, Interval.class);
        } catch (JsonProcessingException e) {
            if (last) {
                return null;
            }
            throw new ResultFormatException(file + " line " + line + ": not an interval (" + e.getOriginalMessage()
                    + ")");
        }
    }

    /**
     * Appends intervals to a timeline file as they close. One thread (the run's reporter) writes; {@link #count}
     * may be read by another afterwards.
     */
    public static final class Writer implements AutoCloseable {

        private final OutputStream out;
        private volatile long count;

        private Writer(Path file) throws IOException {
            Files.createDirectories(file.toAbsolutePath().getParent());
            // Sync-flushed after each line, so what is on disk always decompresses up to the last closed interval.
            this.out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16, true);
        }

        /** The next interval, on disk (in the file system's cache) when this returns. */
        public void append(Interval interval) {
            try {
                out.write(MAPPER.writeValueAsBytes(interval));
                out.write('\n');
                out.flush();
                count++;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the timeline: " + e.getMessage(), e);
            }
        }

        /** Intervals written so far. */
        public long count() {
            return count;
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}

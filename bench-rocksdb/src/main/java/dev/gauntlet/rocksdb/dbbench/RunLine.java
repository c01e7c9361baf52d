package dev.gauntlet.rocksdb.dbbench;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run's figures in db_bench's per-run line, e.g.
 * {@code fillseq      :       4.054 micros/op 246689 ops/sec 4.054 seconds 1000000 operations;   27.3 MB/s}.
 * As in db_bench, micros/op is thread-seconds per operation (elapsed x threads / operations), ops/sec is
 * operations over elapsed time truncated to an integer, and MB/s is (key + value bytes) in MiB per second.
 *
 * @param mbPerSecond NaN when the line has no rate (db_bench omits it for operations that move no bytes)
 */
public record RunLine(String name, double microsPerOp, long opsPerSecond, double seconds, long operations,
                      double mbPerSecond) {

    private static final Pattern LINE = Pattern.compile(
            "^(\\S+)\\s*:\\s*(\\d+(?:\\.\\d+)?) micros/op (\\d+) ops/sec (\\d+(?:\\.\\d+)?) seconds (\\d+) operations;"
                    + "(?:\\s*(\\d+(?:\\.\\d+)?) MB/s)?.*$");

    /** The line db_bench would print for {@code operations} of {@code bytesPerOp} each over {@code seconds}. */
    public static RunLine of(String name, long operations, double seconds, int threads, int bytesPerOp) {
        double elapsed = Math.max(seconds, 1e-9);
        return new RunLine(name, elapsed * threads * 1e6 / Math.max(1, operations), (long) (operations / elapsed),
                seconds, operations, (double) operations * bytesPerOp / 1048576.0 / elapsed);
    }

    /** The line as db_bench formats it ({@code %-12s : %11.3f micros/op %ld ops/sec %.3f seconds %lu operations;}). */
    public String format() {
        String rate = Double.isNaN(mbPerSecond) ? "" : " " + String.format(Locale.ROOT, "%6.1f MB/s", mbPerSecond);
        return String.format(Locale.ROOT, "%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations;%s",
                name, microsPerOp, opsPerSecond, seconds, operations, rate);
    }

    /** The figures of a per-run line, or empty when {@code line} is not one. */
    public static Optional<RunLine> parse(String line) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new RunLine(m.group(1), Double.parseDouble(m.group(2)), Long.parseLong(m.group(3)),
                Double.parseDouble(m.group(4)), Long.parseLong(m.group(5)),
                m.group(6) == null ? Double.NaN : Double.parseDouble(m.group(6))));
    }
}

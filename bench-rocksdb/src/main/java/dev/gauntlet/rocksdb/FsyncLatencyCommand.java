package dev.gauntlet.rocksdb;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.rocksdb.fsync.FsyncProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code fsync-latency}: the floor under a synced write, measured on the database's file system. */
@Command(name = "fsync-latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measures append + fdatasync latency (FileChannel.force(false), what RocksDB's WAL sync does) "
                + "on the file system of --dir, one thread, back to back; prints percentiles and the syncs/s they allow.",
        footer = {"", "Examples:",
                "  bench-rocksdb fsync-latency                   # java.io.tmpdir's file system, maybe tmpfs",
                "  bench-rocksdb fsync-latency --dir . --count 20000   # the current directory's file system",
                "  bench-rocksdb fsync-latency --dir . --fsync   # fsync (metadata too) instead of fdatasync"})
public final class FsyncLatencyCommand implements Callable<Integer> {

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${sys:java.io.tmpdir}",
            description = "A directory on the file system to measure (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--count", paramLabel = "N", defaultValue = "5000",
            description = "Measured syncs (default: ${DEFAULT-VALUE}), after 200 unmeasured ones.")
    int count;

    @Option(names = "--bytes", paramLabel = "N", defaultValue = "141",
            description = "Bytes appended before each sync (default: ${DEFAULT-VALUE}, about one WAL record of a 16+100 byte put).")
    int bytes;

    @Option(names = "--fsync", description = "force(true) (fsync, metadata too) instead of fdatasync.")
    boolean metadata;

    @Override
    public Integer call() throws IOException {
        if (count < 1 || bytes < 1) {
            throw new BadInputException("--count and --bytes must be at least 1");
        }
        Histogram h = FsyncProbe.measure(dir, count, 200, bytes, metadata);
        System.out.printf(Locale.ROOT, "%s of %d bytes on %s, %d samples (us): mean %.1f  p50 %.1f  p90 %.1f  p99 %.1f  "
                        + "p99.9 %.1f  max %.1f%n", metadata ? "append+fsync" : "append+fdatasync", bytes, dir,
                h.getTotalCount(), h.getMean() / 1e3, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
        System.out.printf(Locale.ROOT, "=> at most %.0f synced writes/s on one thread (1 / mean)%n", 1e9 / h.getMean());
        return ExitCode.OK;
    }
}

package dev.gauntlet.rocksdb.fill;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import org.rocksdb.HistogramType;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * What RocksDB's own Statistics counted during a fill: bytes written to WAL files, WAL syncs, writes that
 * went through the WAL, and write stalls (count and total time). Read once, after the writes.
 */
public record WalStatistics(long walBytes, long walSyncs, long writesWithWal, long stallMicros, long writeStalls) {

    public static final WalStatistics NONE = new WalStatistics(0, 0, 0, 0, 0);

    public static WalStatistics read(Statistics statistics) {
        return new WalStatistics(
                statistics.getTickerCount(TickerType.WAL_FILE_BYTES),
                statistics.getTickerCount(TickerType.WAL_FILE_SYNCED),
                statistics.getTickerCount(TickerType.WRITE_WITH_WAL),
                statistics.getTickerCount(TickerType.STALL_MICROS),
                statistics.getHistogramData(HistogramType.WRITE_STALL).getCount());
    }

    /** The statistics a run's result holds as metrics (by {@link #addTo} with no prefix); none: zeros. */
    public static WalStatistics of(dev.gauntlet.core.result.RunResult r) {
        java.util.function.ToLongFunction<String> m = name -> Math.round(r.metrics().getOrDefault(name, 0.0));
        return new WalStatistics(m.applyAsLong("walBytes"), m.applyAsLong("walSyncs"), m.applyAsLong("writesWithWal"),
                m.applyAsLong("stallMicros"), m.applyAsLong("writeStalls"));
    }

    /**
     * Adds these statistics to {@code m} as result metrics (names prefixed with {@code prefix}, per put where it
     * makes sense). WAL bytes and syncs are what durability costs, stalls what the write path lost: fewer is better
     * for each, and totals of concurrent processes add up.
     */
    public void addTo(Metrics m, String prefix, long puts) {
        m.add(name(prefix, "walBytes"), walBytes, MetricInfo.lower().addsUp());
        m.add(name(prefix, "walBytesPerPut"), puts == 0 ? 0 : (double) walBytes / puts, MetricInfo.lower());
        m.add(name(prefix, "walSyncs"), walSyncs, MetricInfo.lower().addsUp());
        m.add(name(prefix, "walSyncsPerPut"), puts == 0 ? 0 : (double) walSyncs / puts, MetricInfo.lower());
        m.add(name(prefix, "writesWithWal"), writesWithWal, MetricInfo.neither().addsUp());
        m.add(name(prefix, "writeStalls"), writeStalls, MetricInfo.lower().addsUp());
        m.add(name(prefix, "stallMicros"), stallMicros, MetricInfo.lower().addsUp());
    }

    private static String name(String prefix, String metric) {
        return prefix.isEmpty() ? metric : prefix + Character.toUpperCase(metric.charAt(0)) + metric.substring(1);
    }

    public WalStatistics plus(WalStatistics o) {
        return new WalStatistics(walBytes + o.walBytes, walSyncs + o.walSyncs, writesWithWal + o.writesWithWal,
                stallMicros + o.stallMicros, writeStalls + o.writeStalls);
    }
}

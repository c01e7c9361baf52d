package dev.gauntlet.rocksdb.fill;

import java.util.LinkedHashMap;
import java.util.Map;
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

    /** As result metrics, per put where it makes sense. */
    public Map<String, Double> metrics(long puts) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("walBytes", (double) walBytes);
        m.put("walBytesPerPut", puts == 0 ? 0 : (double) walBytes / puts);
        m.put("walSyncs", (double) walSyncs);
        m.put("walSyncsPerPut", puts == 0 ? 0 : (double) walSyncs / puts);
        m.put("writesWithWal", (double) writesWithWal);
        m.put("writeStalls", (double) writeStalls);
        m.put("stallMicros", (double) stallMicros);
        return m;
    }

    public WalStatistics plus(WalStatistics o) {
        return new WalStatistics(walBytes + o.walBytes, walSyncs + o.walSyncs, writesWithWal + o.writesWithWal,
                stallMicros + o.stallMicros, writeStalls + o.writeStalls);
    }
}

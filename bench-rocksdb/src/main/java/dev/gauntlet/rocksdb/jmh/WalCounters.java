package dev.gauntlet.rocksdb.jmh;

import dev.gauntlet.rocksdb.fill.WalStatistics;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * RocksDB's Statistics of one fill as JMH secondary metrics. They are raw counts (JMH's EVENTS type adds
 * them up over the measured iterations), so per-put figures are sums over sums: {@code walBytes / puts}.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class WalCounters {

    public long puts;
    public long walBytes;
    public long walSyncs;
    public long writeStalls;
    public long stallMicros;

    @Setup(Level.Iteration)
    public void reset() {
        puts = 0;
        walBytes = 0;
        walSyncs = 0;
        writeStalls = 0;
        stallMicros = 0;
    }

    void add(long fillPuts, WalStatistics s) {
        puts += fillPuts;
        walBytes += s.walBytes();
        walSyncs += s.walSyncs();
        writeStalls += s.writeStalls();
        stallMicros += s.stallMicros();
    }
}

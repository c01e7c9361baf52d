package dev.gauntlet.queue.figures;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import java.util.Map;

/**
 * The headline figures, printed rather than left to the reader: messages and MiB per second written, and read per
 * group and in total, over the measured time that actually elapsed (not the configured duration).
 */
public final class Throughput {

    /** The write operation of both modes. */
    public static final String WRITE = "write";
    private static final double MIB = 1 << 20;

    private Throughput() {
    }

    /**
     * @param reads each group's read operation by the suffix its figures carry ({@code G1} -> {@code read-g1}); a
     *              single entry with an empty suffix gives the totals only
     */
    public static Metrics metrics(RunResult r, Map<String, String> reads) {
        Metrics m = Metrics.of(r);
        double seconds = Math.max(r.measuredSeconds(), 1e-9);
        OperationResult write = r.operation(WRITE).orElse(null);
        m.add("writeMsgPerSecond", counter(write, "messages") / seconds, MetricInfo.higher().addsUp());
        m.add("writeMiBPerSecond", counter(write, "bytes") / MIB / seconds, MetricInfo.higher().addsUp());
        long messages = 0;
        long bytes = 0;
        for (Map.Entry<String, String> group : reads.entrySet()) {
            OperationResult read = r.operation(group.getValue()).orElse(null);
            if (!group.getKey().isEmpty()) {
                m.add("readMsgPerSecond" + group.getKey(), counter(read, "messages") / seconds,
                        MetricInfo.higher().addsUp());
                m.add("readMiBPerSecond" + group.getKey(), counter(read, "bytes") / MIB / seconds,
                        MetricInfo.higher().addsUp());
            }
            messages += counter(read, "messages");
            bytes += counter(read, "bytes");
        }
        m.add("readMsgPerSecond", messages / seconds, MetricInfo.higher().addsUp());
        m.add("readMiBPerSecond", bytes / MIB / seconds, MetricInfo.higher().addsUp());
        return m;
    }

    /** The messages each read operation committed in the measured time, per second. */
    public static double readMsgPerSecond(RunResult r, String operation) {
        return counter(r.operation(operation).orElse(null), "messages") / Math.max(r.measuredSeconds(), 1e-9);
    }

    private static long counter(OperationResult o, String name) {
        return o == null ? 0 : o.counter(name);
    }
}

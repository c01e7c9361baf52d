package dev.gauntlet.queue.figures;

import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.queue.pubsub.PubSubWorkload;

/**
 * The headline figures, printed rather than left to the reader: messages and MiB per second written, and read per
 * group and in total, over the measured time that actually elapsed (not the configured duration).
 */
public final class Throughput {

    private static final double MIB = 1 << 20;

    private Throughput() {
    }

    public static Metrics metrics(RunResult r, int groups) {
        Metrics m = Metrics.of(r);
        double seconds = Math.max(r.measuredSeconds(), 1e-9);
        OperationResult write = r.operation(PubSubWorkload.WRITE).orElse(null);
        m.add("writeMsgPerSecond", counter(write, "messages") / seconds, MetricInfo.higher().addsUp());
        m.add("writeMiBPerSecond", counter(write, "bytes") / MIB / seconds, MetricInfo.higher().addsUp());
        long messages = 0;
        long bytes = 0;
        for (int g = 0; g < groups; g++) {
            OperationResult read = r.operation(PubSubWorkload.readOperation(g)).orElse(null);
            String suffix = "G" + (g + 1);
            m.add("readMsgPerSecond" + suffix, counter(read, "messages") / seconds, MetricInfo.higher().addsUp());
            m.add("readMiBPerSecond" + suffix, counter(read, "bytes") / MIB / seconds, MetricInfo.higher().addsUp());
            messages += counter(read, "messages");
            bytes += counter(read, "bytes");
        }
        m.add("readMsgPerSecond", messages / seconds, MetricInfo.higher().addsUp());
        m.add("readMiBPerSecond", bytes / MIB / seconds, MetricInfo.higher().addsUp());
        return m;
    }

    private static long counter(OperationResult o, String name) {
        return o == null ? 0 : o.counter(name);
    }
}

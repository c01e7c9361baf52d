package dev.gauntlet.core.bench;

import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one interval costs when it is kept: heap (retained after full collections) and bytes of {@code result.json}
 * (indented, as it is written), for intervals of one operation, five, five with two observed latencies, five with ten
 * gauges, and all of it; from which the cost of each operation, observation and gauge. Each interval is made as the
 * runner makes one (its histograms recorded, here from a log-normal latency at TPC-C's rates, and encoded), with
 * objects of its own. Every interval of every run was kept so until runs wrote their timeline file; a long run's
 * result now keeps at most {@link dev.gauntlet.core.result.InlineIntervals#MOST} of them.
 *
 * <pre>{@code
 * mvn -pl bench-core test-compile exec:java -Dexec.skip=false -Dmain.class=dev.gauntlet.core.bench.IntervalCost \
 *     -Dexec.classpathScope=test
 * }</pre>
 */
public final class IntervalCost {

    private static final int INTERVALS = 2000;
    private static final String[] OPERATIONS = {"newOrder", "payment", "orderStatus", "delivery", "stockLevel"};
    private static final int[] PER_SECOND = {335, 335, 36, 33, 33};

    private IntervalCost() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("| intervals of | heap an interval | result.json an interval |");
        System.out.println("|---|---:|---:|");
        measure("1 operation", 1, 0, 0);
        measure("5 operations", 5, 0, 0);
        measure("5 operations, 2 observations", 5, 2, 0);
        measure("5 operations, 10 gauges", 5, 0, 10);
        measure("5 operations, 2 observations, 10 gauges", 5, 2, 10);
    }

    private static void measure(String what, int operations, int observations, int gauges) throws Exception {
        Random r = new Random(1);
        long before = retained();
        List<Interval> kept = new ArrayList<>();
        for (int i = 0; i < INTERVALS; i++) {
            Map<String, IntervalOperation> ops = new LinkedHashMap<>();
            for (int k = 0; k < operations; k++) {
                ops.put(OPERATIONS[k], IntervalOperation.of(latencies(r, PER_SECOND[k], 10), 1.0, 0, 0,
                        Map.of("orderLines", 3394L)));
            }
            Map<String, Timing> observed = new TreeMap<>();
            for (int k = 0; k < observations; k++) {
                observed.put("endToEnd" + k, Timing.of(latencies(r, 300, 20)));
            }
            Map<String, Long> values = new TreeMap<>();
            for (int k = 0; k < gauges; k++) {
                values.put("gauge" + k, 1_000_000L + r.nextInt(1_000_000));
            }
            kept.add(new Interval(i + 1.0, 1.0, "measure", ops, 0, 0, observed, values, Map.of()));
        }
        long after = retained();
        int bytes = ResultFile.toJson(RunResult.builder().intervals(kept).build()).length();
        System.out.printf(Locale.ROOT, "| %s | %,d B | %,d B |%n", what, (after - before) / kept.size(),
                bytes / kept.size());
    }

    private static Histogram latencies(Random r, int n, double medianMs) {
        Histogram h = LatencyRecorder.newHistogram();
        for (int i = 0; i < n; i++) {
            h.recordValue((long) (medianMs * 1e6 * Math.exp(0.5 * r.nextGaussian())));
        }
        return h;
    }

    private static long retained() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}

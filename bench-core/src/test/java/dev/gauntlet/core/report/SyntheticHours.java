package dev.gauntlet.core.report;

import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Twelve hours of one-second intervals as a TPC-C run through faults closes them: five operations at TPC-C's mix
 * (about 740 committed a second, each interval's latency histogram recorded and encoded as the runner encodes them),
 * one observed latency, five gauges (two levels, three rates) and three phases; with a latency spike (newOrder's p99 at
 * {@value #SPIKE_MS} ms for one second at {@link #SPIKE_AT}), a 5 s outage (nothing commits, connection failures) at
 * {@link #OUTAGE_FROM} and a one-second replication lag spike at {@link #LAG_SPIKE_AT}. Interval {@code i} (from 0)
 * ends at {@code i + 1} seconds (and a little: the reporter closes late), so spikes are found by their time.
 *
 * <p>Each operation's histograms come from a pool of {@value #POOL} recorded ones, so 43,200 intervals are made in
 * seconds and are the size real ones are (the run's totals are the pool's histograms times their use).
 */
final class SyntheticHours {

    static final int SECONDS = 12 * 3600;
    static final int POOL = 16;
    /** The interval whose newOrder p99 spikes ends here, and at what (one in twenty of its newOrders). */
    static final int SPIKE_AT = 3 * 3600;
    static final double SPIKE_MS = 2345.0;
    /** Nothing commits in the five intervals ending from here. */
    static final int OUTAGE_FROM = 9 * 3600;
    static final int OUTAGE_SECONDS = 5;
    /** The replication lag reads {@value #LAG_SPIKE_BYTES} bytes at the end of this one interval. */
    static final int LAG_SPIKE_AT = 6 * 3600;
    static final long LAG_SPIKE_BYTES = 900L << 20;
    /** Phases: baseline for the first hour, faults until the last hour, recovery. */
    static final int FAULTS_FROM = 3600;
    static final int RECOVERY_FROM = 11 * 3600;

    static final String[] OPERATIONS = {"newOrder", "payment", "orderStatus", "delivery", "stockLevel"};
    private static final int[] PER_SECOND = {335, 335, 36, 33, 33};
    private static final double[] MEDIAN_MS = {10, 9, 1, 17, 4};
    private static final double CLOSED_LATE = 0.000716;

    static final Map<String, GaugeInfo> GAUGES = gauges();

    private final List<List<IntervalOperation>> pool = new ArrayList<>();
    private final List<Histogram> pooled = new ArrayList<>();
    private final long[][] used = new long[OPERATIONS.length][POOL];
    private final List<Timing> endToEnd = new ArrayList<>();
    private final IntervalOperation spike;
    private final Random random = new Random(7);

    SyntheticHours() {
        Random r = new Random(1);
        for (int k = 0; k < OPERATIONS.length; k++) {
            List<IntervalOperation> ops = new ArrayList<>();
            for (int j = 0; j < POOL; j++) {
                Histogram h = latencies(r, PER_SECOND[k], MEDIAN_MS[k]);
                pooled.add(h);
                ops.add(IntervalOperation.of(h, 1.0, 0, 0, counters(k, PER_SECOND[k])));
            }
            pool.add(ops);
        }
        for (int j = 0; j < POOL; j++) {
            endToEnd.add(Timing.of(latencies(r, 300, 25)));
        }
        Histogram spiked = latencies(r, PER_SECOND[0] - PER_SECOND[0] / 20, MEDIAN_MS[0]);
        spiked.recordValueWithCount((long) (SPIKE_MS * 1e6), PER_SECOND[0] / 20);
        spike = IntervalOperation.of(spiked, 1.0, 0, 0, counters(0, PER_SECOND[0]));
    }

    private static Histogram latencies(Random r, int n, double medianMs) {
        Histogram h = LatencyRecorder.newHistogram();
        for (int i = 0; i < n; i++) {
            h.recordValue((long) (medianMs * 1e6 * Math.exp(0.6 * r.nextGaussian())));
        }
        return h;
    }

    private static Map<String, Long> counters(int op, int count) {
        return op == 0 ? Map.of("orderLines", 10L * count, "rolledBack", count / 100L) : Map.of();
    }

    private static Map<String, GaugeInfo> gauges() {
        Map<String, GaugeInfo> g = new LinkedHashMap<>();
        g.put("replicationLagBytes", GaugeInfo.level(GaugeInfo.Merge.MAX));
        g.put("walBytesPerSecond", GaugeInfo.level(GaugeInfo.Merge.SERVER));
        g.put("checkpoints", GaugeInfo.rate(GaugeInfo.Merge.SERVER));
        g.put("waits-CPU", GaugeInfo.rate(GaugeInfo.Merge.SERVER));
        g.put("waits-IO:DataFileRead", GaugeInfo.rate(GaugeInfo.Merge.SERVER));
        return g;
    }

    /** The phase interval {@code i} (from 0) is in. */
    static String phase(int i) {
        return i < FAULTS_FROM ? "baseline" : i < RECOVERY_FROM ? "faults" : "recovery";
    }

    /** Whether interval {@code i} is the last of its phase. */
    static boolean endsPhase(int i) {
        return i + 1 == FAULTS_FROM || i + 1 == RECOVERY_FROM || i + 1 == SECONDS;
    }

    /** The end of interval {@code i}, in seconds since the start. */
    static double end(int i) {
        return i + 1 + CLOSED_LATE;
    }

    /** Interval {@code i}, from 0. */
    Interval interval(int i) {
        int second = i + 1;
        boolean down = second > OUTAGE_FROM && second <= OUTAGE_FROM + OUTAGE_SECONDS;
        Map<String, IntervalOperation> ops = new LinkedHashMap<>();
        for (int k = 0; k < OPERATIONS.length; k++) {
            if (down) {
                ops.put(OPERATIONS[k], IntervalOperation.of(LatencyRecorder.newHistogram(), 1.0, 2, 0, Map.of()));
            } else if (k == 0 && second == SPIKE_AT) {
                ops.put(OPERATIONS[k], spike);
                add(k, spike);
            } else {
                int j = random.nextInt(POOL);
                used[k][j]++;
                ops.put(OPERATIONS[k], pool.get(k).get(j));
            }
        }
        Map<String, Timing> observed = down ? Map.of() : Map.of("endToEnd", endToEnd.get(random.nextInt(POOL)));
        Map<String, Long> gauges = new TreeMap<>();
        gauges.put("replicationLagBytes",
                second == LAG_SPIKE_AT ? LAG_SPIKE_BYTES : 1_000_000L + random.nextInt(50_000));
        gauges.put("walBytesPerSecond", 4_000_000L + random.nextInt(400_000));
        gauges.put("checkpoints", second % 300 == 0 ? 1L : 0L);
        gauges.put("waits-CPU", 30L + random.nextInt(10));
        gauges.put("waits-IO:DataFileRead", (long) random.nextInt(5));
        Map<String, Long> failures = down ? Map.of("connection", 10L) : Map.of();
        return new Interval(end(i), 1.0, phase(i), ops, down ? 10 : 0, 0, observed, gauges, failures);
    }

    private final Histogram[] extra = new Histogram[OPERATIONS.length];

    private void add(int k, IntervalOperation op) {
        if (extra[k] == null) {
            extra[k] = new Histogram(3);
        }
        extra[k].add(HistogramCodec.decode(op.histogram()));
    }

    /** The run's result around its intervals: totals of what was made, phases, gauges, two disruptions. */
    RunResult result(List<Interval> intervals) {
        List<OperationResult> totals = new ArrayList<>();
        for (int k = 0; k < OPERATIONS.length; k++) {
            Histogram total = new Histogram(3);
            for (int j = 0; j < POOL; j++) {
                long times = used[k][j];
                pooled.get(k * POOL + j).recordedValues().forEach(v ->
                        total.recordValueWithCount(v.getValueIteratedTo(), v.getCountAtValueIteratedTo() * times));
            }
            if (extra[k] != null) {
                total.add(extra[k]);
            }
            long count = total.getTotalCount();
            totals.add(OperationResult.of(OPERATIONS[k], count, 10L * OUTAGE_SECONDS / OPERATIONS.length, 0,
                    count / (double) SECONDS, LatencySummary.of(total), HistogramCodec.encode(total), null, null,
                    counters(k, (int) Math.min(Integer.MAX_VALUE, count))));
        }
        Map<String, GaugeSummary> gauges = new LinkedHashMap<>();
        GAUGES.forEach((name, info) -> gauges.put(name, new GaugeSummary(0, 0, 0, info)));
        return RunResult.builder().runId(RunResult.newRunId()).workload("tpcc").variant("twelve hours, synthetic")
                .command("synthetic: SyntheticHours").startedAt("2025-01-01T00:00:00Z")
                .endedAt("2025-01-01T12:00:00Z").measuredSeconds(SECONDS).clients(64)
                .parameters(Map.of("reportEvery", "1s", "duration", "12h")).operations(totals)
                .phases(List.of(new Phase("baseline", 0, FAULTS_FROM, Map.of(), true, Map.of()),
                        new Phase("faults", FAULTS_FROM, RECOVERY_FROM, Map.of(), true, Map.of()),
                        new Phase("recovery", RECOVERY_FROM, SECONDS, Map.of(), true, Map.of())))
                .disruptions(List.of(
                        new DisruptionRecord("kill-primary", OUTAGE_FROM, OUTAGE_FROM + 2.0, (double) OUTAGE_FROM,
                                OUTAGE_FROM + 2.0, DisruptionRecord.DONE, List.of()).recovered(3.0),
                        new DisruptionRecord("partition", LAG_SPIKE_AT - 30, (double) LAG_SPIKE_AT,
                                LAG_SPIKE_AT - 30.0, (double) LAG_SPIKE_AT, DisruptionRecord.DONE, List.of())
                                .recovered(1.0)))
                .gauges(gauges).intervals(intervals).build();
    }
}

package dev.gauntlet.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a result keeps of its intervals: every one of a short run, as it is; consecutive ones of a long run merged
 * exactly (histograms summed, rates added, a level's last value, failures summed, the unavailable seconds of those
 * merged), never across a phase boundary, at most {@link InlineIntervals#MOST} of them however long the run; and the
 * timeline file beside the result holding every interval, readable up to its last whole line when cut short.
 */
class InlineIntervalsTest {

    private static final Map<String, GaugeInfo.Kind> KINDS = Map.of("lag", GaugeInfo.Kind.LEVEL,
            "waits", GaugeInfo.Kind.RATE);

    @TempDir
    Path tmp;

    /** One second ending at {@code t}: {@code count} operations at {@code ms}, lag {@code t}, 3 waits. */
    private static Interval second(int t, String phase, int count, double ms) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < count; i++) {
            h.recordValue((long) (ms * 1e6));
        }
        Map<String, IntervalOperation> ops = new LinkedHashMap<>();
        ops.put("get", IntervalOperation.of(h, 1.0, count == 0 ? 2 : 0, 1, Map.of("rows", 2L * count)));
        Histogram e2e = new Histogram(3);
        e2e.recordValue((long) (2 * ms * 1e6));
        return new Interval(t, 1.0, phase, ops, count == 0 ? 2 : 0, 1, Map.of("e2e", Timing.of(e2e)),
                Map.of("lag", (long) t, "waits", 3L), count == 0 ? Map.of("timeout", 2L) : Map.of());
    }

    private static InlineIntervals inline(double plannedSeconds) {
        return new InlineIntervals(1.0, plannedSeconds, KINDS::get);
    }

    @Test
    void aShortRunKeepsEveryIntervalAsItIs() {
        InlineIntervals kept = inline(InlineIntervals.MOST);
        List<Interval> all = new ArrayList<>();
        for (int t = 1; t <= InlineIntervals.MOST; t++) {
            Interval i = second(t, "measure", 10, 5);
            all.add(i);
            kept.add(i);
        }
        kept.endPhase();
        assertEquals(1.0, kept.bucketSeconds());
        assertEquals(all.size(), kept.intervals().size());
        for (int k = 0; k < all.size(); k++) {
            assertSame(all.get(k), kept.intervals().get(k), "unchanged, not re-encoded");
        }
    }

    @Test
    void consecutiveIntervalsOfAPhaseMergeExactlyAndNeverAcrossItsEnd() {
        // 2 hours at 1 s: one-minute buckets. A baseline of 100 s, then 500 s with an outage at 150-154 s.
        InlineIntervals kept = inline(2 * 3600);
        assertEquals(60.0, kept.bucketSeconds());
        Histogram all = new Histogram(3);
        for (int t = 1; t <= 600; t++) {
            boolean down = t > 150 && t <= 154;
            Interval i = second(t, t <= 100 ? "baseline" : "faults", down ? 0 : 10, t == 300 ? 900 : 5);
            all.add(HistogramCodec.decode(i.operations().get("get").histogram()));
            kept.add(i);
            if (t == 100) {
                kept.endPhase();
            }
        }
        List<Interval> intervals = kept.intervals();
        // Baseline: 0-60, 60-100 (its end cuts the bucket); faults: 100-120, then a bucket a minute, to 600.
        assertEquals(List.of(60.0, 100.0, 120.0, 180.0, 240.0, 300.0, 360.0, 420.0, 480.0, 540.0, 600.0),
                intervals.stream().map(Interval::t).toList());
        assertEquals(List.of(60, 40, 20, 60, 60, 60, 60, 60, 60, 60, 60),
                intervals.stream().map(Interval::reportingIntervals).toList());
        assertEquals(List.of("baseline", "baseline", "faults"), intervals.subList(0, 3).stream().map(Interval::phase)
                .toList());

        Interval outage = intervals.get(3);
        assertEquals(60.0, outage.seconds(), 1e-9);
        assertEquals(4.0, outage.unavailableSeconds(), 1e-9, "the outage's 4 s, of 60");
        assertEquals(0.0, intervals.get(4).unavailableSeconds());
        IntervalOperation get = outage.operations().get("get");
        assertEquals(560, get.count());
        assertEquals(560 / 60.0, get.opsPerSecond(), 1e-9);
        assertEquals(Map.of("rows", 1120L), get.counters());
        assertEquals(8, get.errors(), "2 a second while down");
        assertEquals(60, get.retries());
        assertEquals(Map.of("timeout", 8L), outage.failures());
        assertEquals(8, outage.errors());
        assertEquals(3L * 60, outage.gauges().get("waits"), "a rate's counts add up");
        assertEquals(180L, outage.gauges().get("lag"), "a level keeps its last value");
        assertEquals(60, outage.observations().get("e2e").count());

        IntervalOperation spike = intervals.get(5).operations().get("get");
        assertEquals(900.0, spike.max(), 1.0, "the merged histogram keeps the spike");
        Histogram merged = new Histogram(3);
        intervals.forEach(i -> merged.add(HistogramCodec.decode(i.operations().get("get").histogram())));
        assertEquals(values(all), values(merged), "exact: the buckets' histograms add up to the intervals'");
    }

    /** The same intervals, in order; a failure names the first that differs, not them all. */
    private static void assertSameIntervals(List<Interval> expected, List<Interval> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "interval " + i);
        }
        assertEquals(expected.size(), actual.size(), "intervals");
    }

    /** A histogram's counts by value. */
    private static Map<Long, Long> values(Histogram h) {
        Map<Long, Long> counts = new LinkedHashMap<>();
        h.recordedValues().forEach(v -> counts.put(v.getValueIteratedTo(), v.getCountAtValueIteratedTo()));
        return counts;
    }

    @Test
    void aRunOfUnknownLengthStaysWithinBoundsByWideningItsBuckets() {
        InlineIntervals kept = inline(0);
        for (int t = 1; t <= 5_000; t++) {
            kept.add(second(t, "measure", 1, 5));
        }
        List<Interval> intervals = kept.intervals();
        assertTrue(intervals.size() <= 2 * InlineIntervals.MOST + 1, intervals.size() + " kept");
        assertTrue(kept.bucketSeconds() >= 5_000.0 / (2 * InlineIntervals.MOST), "widened: " + kept.bucketSeconds());
        assertEquals(5_000, intervals.stream().mapToLong(i -> i.operations().get("get").count()).sum());
        assertEquals(5_000, intervals.stream().mapToLong(Interval::reportingIntervals).sum());
    }

    @Test
    void theWidthIsTheLeastThatKeepsThePlannedRunWithinBounds() {
        assertEquals(1, InlineIntervals.widthFor(InlineIntervals.MOST));
        assertEquals(2, InlineIntervals.widthFor(InlineIntervals.MOST + 1));
        assertEquals(3, InlineIntervals.widthFor(300));
        assertEquals(30, InlineIntervals.widthFor(3600));
        assertEquals(60, InlineIntervals.widthFor(2 * 3600));
        assertEquals(360, InlineIntervals.widthFor(12 * 3600));
        assertEquals(1, InlineIntervals.widthFor(0));
    }

    @Test
    void theTimelineFileHoldsEveryIntervalAndReadsUpToItsLastWholeLineWhenCutShort() throws Exception {
        Path file = tmp.resolve(TimelineFile.NAME);
        List<Interval> written = new ArrayList<>();
        try (TimelineFile.Writer w = TimelineFile.create(file)) {
            for (int t = 1; t <= 300; t++) {
                Interval i = second(t, "measure", t % 7, 5);
                written.add(i);
                w.append(i);
            }
            assertEquals(300, w.count());
            // Readable while the run goes: each line is flushed through the compressor as it is written.
            List<Interval> soFar = new ArrayList<>();
            TimelineFile.read(file, soFar::add);
            assertSameIntervals(written, soFar);
        }
        List<Interval> read = new ArrayList<>();
        TimelineFile.read(file, read::add);
        assertSameIntervals(written, read);

        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        Path cut = tmp.resolve("cut.jsonl.gz");
        java.nio.file.Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
        List<Interval> partial = new ArrayList<>();
        TimelineFile.read(cut, partial::add);
        assertTrue(partial.size() > 100 && partial.size() < 300, partial.size() + " read");
        assertSameIntervals(written.subList(0, partial.size()), partial);

        RunResult run = RunResult.builder().intervals(List.of(written.get(0)))
                .fullTimeline(new FullTimeline(TimelineFile.NAME, 300)).build();
        assertEquals(300, Timeline.of(run, tmp).size());
        assertEquals(1, Timeline.of(run, tmp.resolve("elsewhere")).size(), "without its file: the result's own");
        assertNull(RunResult.builder().build().fullTimeline());
    }
}

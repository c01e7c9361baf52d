package dev.gauntlet.core.report;

import dev.gauntlet.core.result.FullTimeline;
import dev.gauntlet.core.result.InlineIntervals;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.TimelineFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Twelve hours of one-second intervals ({@link SyntheticHours}) through what a run does with them, in a JVM of its
 * own so its heap can be bounded ({@code -Xmx512m}): each interval, as it closes, into the run's
 * {@link InlineIntervals} and its {@link TimelineFile} (as the runner's interval accounts and {@code Benchmark} do),
 * then the result written, report.md and its charts rendered, and dashboard.html written from the timeline file.
 * Prints what it measured, one {@code name=value} a line: the heap retained (after full collections) before, half way
 * and at the end of the feed, the files' sizes and each step's time. That it prints at all says the whole path ran
 * in the heap it was given. First, for comparison, what keeping every interval costs (as every run did before the
 * timeline file): the heap and the bytes of result.json (indented, as it is written) per interval, over
 * {@value #SAMPLE} of them, each with its own objects.
 *
 * <p>Usage: {@code HoursOfIntervals DIR}.
 */
final class HoursOfIntervals {

    /** Intervals kept to measure what one costs inline. */
    static final int SAMPLE = 2000;

    private HoursOfIntervals() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args[0]));
        inlineCost();
        SyntheticHours hours = new SyntheticHours();
        long before = retained();
        long start = System.nanoTime();
        InlineIntervals inline = new InlineIntervals(1.0, SyntheticHours.SECONDS,
                name -> SyntheticHours.GAUGES.get(name).kind());
        long half = 0;
        long count;
        try (TimelineFile.Writer timeline = TimelineFile.create(dir.resolve(TimelineFile.NAME))) {
            for (int i = 0; i < SyntheticHours.SECONDS; i++) {
                Interval interval = hours.interval(i);
                inline.add(interval);
                timeline.append(interval);
                if (SyntheticHours.endsPhase(i)) {
                    inline.endPhase();
                }
                if (i + 1 == SyntheticHours.SECONDS / 2) {
                    half = retained();
                }
            }
            count = timeline.count();
        }
        long fed = System.nanoTime();
        long atEnd = retained();
        List<Interval> kept = inline.intervals();
        RunResult result = hours.result(kept).toBuilder()
                .fullTimeline(new FullTimeline(TimelineFile.NAME, count)).build();
        ResultFile.write(result, dir.resolve(ResultFile.NAME));
        long written = System.nanoTime();
        RunReport.write(result, dir);
        long reported = System.nanoTime();
        Dashboard.write(result, dir);
        long drawn = System.nanoTime();
        print("intervals", count);
        print("inlineIntervals", kept.size());
        print("bucketSeconds", inline.bucketSeconds());
        print("heapBeforeBytes", before);
        print("heapHalfBytes", half);
        print("heapEndBytes", atEnd);
        print("heapMaxBytes", Runtime.getRuntime().maxMemory());
        print("resultBytes", Files.size(dir.resolve(ResultFile.NAME)));
        print("timelineBytes", Files.size(dir.resolve(TimelineFile.NAME)));
        print("dashboardBytes", Files.size(dir.resolve(Dashboard.FILE)));
        print("feedSeconds", (fed - start) / 1e9);
        print("resultSeconds", (written - fed) / 1e9);
        print("reportSeconds", (reported - written) / 1e9);
        print("dashboardSeconds", (drawn - reported) / 1e9);
    }

    /** What an interval costs kept in memory and written into result.json, as every interval was before. */
    private static void inlineCost() throws Exception {
        SyntheticHours sample = new SyntheticHours();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        long empty = retained();
        java.util.List<Interval> kept = new java.util.ArrayList<>();
        for (int i = 0; i < SAMPLE; i++) {
            // Through JSON and back: objects of its own, as a run's intervals have (the sample's share a pool).
            kept.add(json.readValue(json.writeValueAsString(sample.interval(i)), Interval.class));
        }
        long full = retained();
        int bytes = ResultFile.toJson(RunResult.builder().intervals(kept).build()).length();
        print("inlineHeapBytesPerInterval", (full - empty) / SAMPLE);
        print("inlineJsonBytesPerInterval", bytes / SAMPLE);
        if (kept.size() != SAMPLE) {
            throw new IllegalStateException(); // keeps the sample reachable until measured
        }
    }

    private static void print(String name, Object value) {
        System.out.println(name + "=" + (value instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : value));
    }

    /** Heap in use after full collections: what is still reachable. */
    static long retained() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}

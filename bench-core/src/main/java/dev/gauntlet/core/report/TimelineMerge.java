package dev.gauntlet.core.report;

import dev.gauntlet.core.result.GaugeInfo;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.Timing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * The merged result's timeline, for {@link ResultMerge}: intervals aligned by wall-clock time (those of different
 * inputs whose ends lie within half a reporting period of each other become one, their histograms added, their
 * gauges merged by each one's rule), and phases spanning the inputs' own, each with its operations' figures from the
 * inputs' phase histograms summed; in seconds from the earliest input's start. It goes through the inputs' timelines
 * side by side, one interval of each at a time: their timeline files (every reporting interval, however long the run)
 * or, for results alone, their own intervals (a long run's downsampled ones: they are aligned to their run's start, so
 * processes started together merge bucket by bucket).
 */
final class TimelineMerge {

    private TimelineMerge() {
    }

    private record Stamped(int input, double end, Interval interval) {
    }

    /** One input's timeline as it is gone through: its next interval, and when that ends in epoch seconds. */
    private static final class Head {
        final int input;
        final double start;
        final Timeline.Cursor cursor;
        Stamped next;

        Head(int input, double start, Timeline.Cursor cursor) {
            this.input = input;
            this.start = start;
            this.cursor = cursor;
        }

        /** Moves to the next interval; false at the end. */
        boolean advance() {
            if (!cursor.hasNext()) {
                next = null;
                return false;
            }
            Interval interval = cursor.next();
            next = new Stamped(input, start + interval.t(), interval);
            return true;
        }
    }

    /** The intervals of the runs' own, merged (see {@link #intervals(List, List, double, Map, Consumer)}). */
    static List<Interval> intervals(List<RunResult> runs, double origin, Map<String, GaugeInfo.Merge> rules) {
        List<Interval> merged = new ArrayList<>();
        intervals(runs, runs.stream().map(r -> Timeline.of(r.intervals())).toList(), origin, rules, merged::add);
        return merged;
    }

    /**
     * Intervals grouped by when they ended, each group merged into one and handed to {@code each} in order: at most
     * one interval per input in a group, ends within half a reporting period of the group's first.
     *
     * @param timelines each run's timeline, in the order of {@code runs}
     */
    static void intervals(List<RunResult> runs, List<Timeline> timelines, double origin,
                          Map<String, GaugeInfo.Merge> rules, Consumer<Interval> each) {
        double tolerance = period(timelines) / 2;
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparingDouble((Head h) -> h.next.end())
                .thenComparingInt(h -> h.input));
        List<Head> opened = new ArrayList<>();
        try {
            for (int i = 0; i < runs.size(); i++) {
                Head head = new Head(i, MergeInputs.startedAtSeconds(runs.get(i)), timelines.get(i).open());
                opened.add(head);
                if (head.advance()) {
                    heads.add(head);
                }
            }
            List<Stamped> group = new ArrayList<>();
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                Stamped s = head.next;
                boolean fits = !group.isEmpty() && s.end() - group.get(0).end() <= tolerance
                        && group.stream().noneMatch(g -> g.input() == s.input());
                if (!group.isEmpty() && !fits) {
                    each.accept(interval(group, origin, rules));
                    group.clear();
                }
                group.add(s);
                if (head.advance()) {
                    heads.add(head);
                }
            }
            if (!group.isEmpty()) {
                each.accept(interval(group, origin, rules));
            }
        } finally {
            opened.forEach(h -> h.cursor.close());
        }
    }

    /**
     * The reporting period, as the intervals show it: the median length of the first intervals of each timeline
     * (first and last ones, and those cut at phase boundaries, may be short).
     */
    static double period(List<Timeline> timelines) {
        List<Double> lengths = new ArrayList<>();
        for (Timeline timeline : timelines) {
            try (Timeline.Cursor intervals = timeline.open()) {
                for (int n = 0; n < 1000 && intervals.hasNext(); n++) {
                    lengths.add(intervals.next().seconds());
                }
            }
        }
        lengths.sort(Double::compare);
        return lengths.isEmpty() ? 1 : lengths.get(lengths.size() / 2);
    }

    private static Interval interval(List<Stamped> group, double origin, Map<String, GaugeInfo.Merge> rules) {
        List<Interval> parts = group.stream().map(Stamped::interval).toList();
        double t = group.stream().mapToDouble(Stamped::end).max().orElseThrow() - origin;
        double seconds = parts.stream().mapToDouble(Interval::seconds).max().orElse(0);
        String phase = parts.stream().map(Interval::phase).filter(Objects::nonNull).findFirst().orElse(null);
        Map<String, List<IntervalOperation>> byName = new TreeMap<>();
        parts.forEach(p -> p.operations().forEach((name, op) ->
                byName.computeIfAbsent(name, k -> new ArrayList<>()).add(op)));
        Map<String, IntervalOperation> ops = new TreeMap<>();
        byName.forEach((name, list) -> ops.put(name, intervalOperation(list, seconds)));
        // Downsampled inputs (long runs): the merged interval stands for as many reporting intervals as its longest
        // part, and is unavailable for at most the least any process was (exactly so when outages coincide).
        boolean downsampled = parts.stream().anyMatch(p -> p.merged() != null);
        Integer merged = downsampled ? parts.stream().mapToInt(Interval::reportingIntervals).max().orElse(1) : null;
        Double unavailable = downsampled ? parts.stream().mapToDouble(Interval::unavailableSeconds).min().orElse(0)
                : null;
        return new Interval(t, seconds, phase, ops, sum(parts, Interval::errors), sum(parts, Interval::retries),
                observations(parts.stream().map(Interval::observations).toList()),
                intervalGauges(parts, rules), failures(parts), merged, unavailable);
    }

    private static IntervalOperation intervalOperation(List<IntervalOperation> parts, double seconds) {
        long count = sum(parts, IntervalOperation::count);
        double recordedRate = parts.stream().mapToDouble(IntervalOperation::opsPerSecond).sum();
        double rate = Figures.perSecond(count, seconds, recordedRate);
        long errors = sum(parts, IntervalOperation::errors);
        long retries = sum(parts, IntervalOperation::retries);
        Map<String, Long> counters = new TreeMap<>();
        parts.forEach(p -> p.counters().forEach((k, v) -> counters.merge(k, v, Long::sum)));
        if (parts.stream().allMatch(p -> p.histogram() != null)) {
            Histogram h = Histograms.sum(parts.stream().map(IntervalOperation::histogram).toList());
            LatencySummary l = LatencySummary.of(h);
            return new IntervalOperation(count, rate, l.p50(), l.p95(), l.p99(), l.max(), errors, retries,
                    HistogramCodec.encode(h), counters, l.p90());
        }
        return new IntervalOperation(count, rate, worst(parts, IntervalOperation::p50),
                worst(parts, IntervalOperation::p95), worst(parts, IntervalOperation::p99),
                worst(parts, IntervalOperation::max), errors, retries, null, counters);
    }

    /** Observed latencies of concurrent processes, as one distribution per name: their histograms summed. */
    static Map<String, Timing> observations(List<Map<String, Timing>> parts) {
        Map<String, List<String>> byName = new TreeMap<>();
        parts.forEach(m -> m.forEach((name, t) -> byName.computeIfAbsent(name, k -> new ArrayList<>()).add(t.histogram())));
        Map<String, Timing> merged = new TreeMap<>();
        byName.forEach((name, hs) -> {
            Timing t = Timing.of(Histograms.sum(hs));
            if (t != null) {
                merged.put(name, t);
            }
        });
        return merged;
    }

    /** One interval's gauges over the processes, each by its rule. */
    private static Map<String, Long> intervalGauges(List<Interval> parts, Map<String, GaugeInfo.Merge> rules) {
        Map<String, List<Long>> byName = new TreeMap<>();
        parts.forEach(p -> p.gauges().forEach((name, v) -> byName.computeIfAbsent(name, k -> new ArrayList<>()).add(v)));
        Map<String, Long> merged = new TreeMap<>();
        byName.forEach((name, values) -> merged.put(name, rules.getOrDefault(name, GaugeInfo.Merge.SUM)
                .of(values.stream().mapToLong(Long::longValue).toArray())));
        return merged;
    }

    /** Failures by class are each process's own: they add up. */
    private static Map<String, Long> failures(List<Interval> parts) {
        Map<String, Long> merged = new TreeMap<>();
        parts.forEach(p -> p.failures().forEach((name, v) -> merged.merge(name, v, Long::sum)));
        return merged;
    }

    private static double worst(List<IntervalOperation> parts, java.util.function.ToDoubleFunction<IntervalOperation> f) {
        return parts.stream().mapToDouble(f).max().orElse(0);
    }

    /**
     * Each phase spans from its earliest start to its latest end across the inputs, on the merged timeline, with each
     * operation's figures over it: the inputs' phase histograms summed (so its percentiles are those of every
     * operation of every process in the phase), counts added, and its rate the sum of the processes' own rates over
     * their phase, as throughput merges. The processes' phase probes are each one's own readings and are left out:
     * the metrics made of them merge by their rules.
     */
    static List<Phase> phases(List<RunResult> runs, double origin) {
        Map<String, double[]> spans = new LinkedHashMap<>();
        Map<String, List<Phase>> parts = new LinkedHashMap<>();
        for (RunResult r : runs) {
            double start = MergeInputs.startedAtSeconds(r) - origin;
            for (Phase p : r.phases()) {
                double[] span = spans.computeIfAbsent(p.name(), n -> new double[] {Double.MAX_VALUE, -Double.MAX_VALUE});
                span[0] = Math.min(span[0], start + p.startSeconds());
                span[1] = Math.max(span[1], start + p.endSeconds());
                parts.computeIfAbsent(p.name(), n -> new ArrayList<>()).add(p);
            }
        }
        List<Phase> phases = new ArrayList<>();
        spans.forEach((name, span) -> {
            Map<String, List<IntervalOperation>> byOperation = new LinkedHashMap<>();
            parts.get(name).forEach(p -> p.operations().forEach((op, figures) ->
                    byOperation.computeIfAbsent(op, k -> new ArrayList<>()).add(figures)));
            Map<String, IntervalOperation> operations = new LinkedHashMap<>();
            // No span: each operation's rate is the processes' own rates summed.
            byOperation.forEach((op, figures) -> operations.put(op, intervalOperation(figures, 0)));
            phases.add(new Phase(name, span[0], span[1], Map.of(), parts.get(name).get(0).measured(), operations));
        });
        return phases;
    }

    private static <T> long sum(List<T> parts, ToLongFunction<T> field) {
        return parts.stream().mapToLong(field).sum();
    }
}

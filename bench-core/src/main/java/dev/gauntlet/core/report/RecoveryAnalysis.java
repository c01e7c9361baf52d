package dev.gauntlet.core.report;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Reads recovery and availability from a run's intervals alone (so an old result can be judged again):
 *
 * <ul>
 *   <li><b>recovery</b> of each disruption, one of three verdicts. <i>Recovered</i>, with the time from its end to the
 *       first rolling window of the rule's operation back inside the range the baseline's own windows held, when
 *       the windows from there on stay in it for the rule's hold time as often as the baseline's did (less a tenth);
 *       <i>not recovered</i> only when the data say so in the time it had (to the end of the phase it ended in and
 *       of the rule's recovery phases after it, or to the next disruption's start): never back inside the range,
 *       that time at least the rule's window and hold, or back and out of it again during a hold that had room to
 *       complete (or for so long that the hold could no longer pass), no hold running when the time was up;
 *       <i>not judged</i> when back with the hold cut short by the next disruption or the phase's end (the record
 *       says when it came back, how long it held and what cut it: {@code back at 82.0s, held 23.0s of 30.0s before
 *       the next disruption, latency, at 105.0s}), or never back in a time shorter than window and hold (the record
 *       says which came, and when).</li>
 *   <li><b>unavailability</b>: the seconds of intervals in which nothing committed, over the run
 *       ({@code unavailableSeconds}) and per phase ({@code unavailableSeconds.PHASE}).</li>
 * </ul>
 *
 * <p>The range is the baseline's own: a window is back when its throughput is at least the lower of the rule's
 * tolerance below the baseline's mean and the throughput of the baseline's 10th-percentile window, and its p95 at most
 * the higher of the rule's latency factor times the baseline's p95 and the p95 of its 90th-percentile window. A
 * steady baseline keeps the rule's tolerance; a noisy closed-loop one (1 s intervals swinging 830-1,390 a second)
 * is not held to a line a third of its own windows missed. Throughput at or above the baseline counts as back (a
 * backlog drained fast is not a fault). The rolling window sums the intervals' histograms, so its p95 is exact at the
 * histograms' precision.
 *
 * <p>Runs through faults are judged by it as they end, and {@code report merge} judges the merged timeline of their
 * driver processes again by the rule each result records ({@link RecoveryRule}); a plan's phase
 * {@code until: recovered} ends by its parts, heard interval by interval.
 *
 * <p>It reads the run's every reporting interval (its {@link Timeline}: a long run's from its timeline file) twice,
 * one at a time, keeping the baseline's sums and its windows' two figures, a window's intervals and a few numbers per
 * interval: a 12-hour run at one-second intervals is judged in a few megabytes.
 */
public final class RecoveryAnalysis {

    public static final String UNAVAILABLE = "unavailableSeconds";

    private RecoveryAnalysis() {
    }

    /** The result with each disruption's recovery verdict and the unavailability metrics, from its own intervals. */
    public static RunResult apply(RunResult run, RecoveryRule rule) {
        return apply(run, Timeline.of(run.intervals()), rule);
    }

    /**
     * The same, read from the run's every reporting interval ({@code timeline}), a disruption's recovery judged until
     * the end of its phase and of the rule's recovery phases right after it; the result records the rule.
     */
    public static RunResult apply(RunResult run, Timeline timeline, RecoveryRule rule) {
        Set<String> recoveryPhases = Set.copyOf(rule.recoveryPhases());
        BaselineSum baselineSum = new BaselineSum(rule);
        Map<String, Double> unavailable = new LinkedHashMap<>();
        double[] total = new double[1];
        double[] lastEnd = new double[] {Double.NaN};
        timeline.forEach(i -> {
            baselineSum.add(i);
            double seconds = i.unavailableSeconds();
            total[0] += seconds;
            unavailable.merge(String.valueOf(i.phase()), seconds, Double::sum);
            lastEnd[0] = i.t();
        });
        Optional<Baseline> baseline = baselineSum.baseline();
        double runEnd = lastEnd[0];
        List<Recovery> recoveries = new ArrayList<>();
        List<Horizon> horizons = new ArrayList<>();
        for (DisruptionRecord d : run.disruptions()) {
            boolean ran = d.startSeconds() != null && d.endSeconds() != null;
            Horizon h = ran ? horizon(run, d, recoveryPhases, runEnd) : null;
            horizons.add(h);
            recoveries.add(ran && baseline.isPresent() ? new Recovery(rule, baseline.get(), d.endSeconds(), h.at())
                    : null);
        }
        if (recoveries.stream().anyMatch(java.util.Objects::nonNull)) {
            RollingWindow window = new RollingWindow(rule);
            timeline.forEach(i -> {
                window.add(i);
                boolean healthy = window.healthy(baseline.get());
                recoveries.stream().filter(java.util.Objects::nonNull).forEach(r -> r.hear(i.t(), healthy));
            });
        }
        List<DisruptionRecord> judged = new ArrayList<>();
        for (int k = 0; k < run.disruptions().size(); k++) {
            DisruptionRecord d = run.disruptions().get(k);
            Recovery r = recoveries.get(k);
            if (r == null) {
                judged.add(d);
            } else if (r.seconds().isPresent()) {
                judged.add(d.recovered(r.seconds().get()));
            } else {
                judged.add(unrecovered(d, r, horizons.get(k), rule));
            }
        }
        judged = withFailures(judged, horizons, timeline);
        Metrics metrics = Metrics.of(run);
        metrics.add(UNAVAILABLE, total[0], MetricInfo.lower());
        for (Phase p : run.phases()) {
            metrics.add(UNAVAILABLE + "." + p.name(), unavailable.getOrDefault(p.name(), 0.0), MetricInfo.lower());
        }
        if (baseline.isPresent()) {
            metrics.add("baselineOpsPerSecond", baseline.get().opsPerSecond(), MetricInfo.higher());
            metrics.add("baselineP95Ms", baseline.get().p95Ms(), MetricInfo.lower());
            // The range a window must be back inside, from the baseline's own windows: the rule as it was applied.
            metrics.add("recoveryFloorOpsPerSecond", baseline.get().floorOpsPerSecond(), MetricInfo.neither());
            metrics.add("recoveryCeilingP95Ms", baseline.get().ceilingP95Ms(), MetricInfo.neither());
            metrics.add("recoveryHoldShare", baseline.get().holdShare(), MetricInfo.neither());
        }
        return run.toBuilder().metrics(metrics).disruptions(judged).recoveryRule(rule).build();
    }

    /**
     * The verdict on a disruption {@code r} did not find recovered by its horizon {@code h}. Back, with the hold that
     * began then still running when the wait ended (cut short by the next disruption or the phase's end, and not
     * already failed): not judged, with when it came back and how long it held. Not recovered when it came back and
     * left the range during a hold that had room to complete (or left it so long that the hold could no longer pass,
     * the time it had at least the rule's window and hold), no later hold running at the horizon; or when it was
     * never back in all the time it had, at least the rule's window and hold. Else not judged: the horizon came
     * sooner than that.
     */
    private static DisruptionRecord unrecovered(DisruptionRecord d, Recovery r, Horizon h, RecoveryRule rule) {
        double had = h.at() - d.endSeconds();
        double needs = rule.windowSeconds() + rule.holdSeconds();
        Optional<double[]> cut = r.cut();
        if (cut.isPresent()) {
            return d.notJudged("back at " + Figures.seconds(cut.get()[0]) + ", held " + Figures.seconds(cut.get()[1])
                    + " of " + Figures.seconds(rule.holdSeconds()) + " before " + h.what());
        }
        if (r.back().isPresent() && (r.holdFailed() || had + 1e-6 >= needs)) {
            return d.notRecovered("back at " + Figures.seconds(r.back().get()) + ", out of the range again within its "
                    + Figures.seconds(rule.holdSeconds()) + " hold; not back to stay in the " + Figures.seconds(had)
                    + " to " + h.what());
        }
        if (had + 1e-6 >= needs) {
            return d.notRecovered("not back in the " + Figures.seconds(had) + " to " + h.what());
        }
        return d.notJudged(h.what() + " came " + Figures.seconds(Math.max(0, had))
                + " after its end, before the rule could hold (it needs " + Figures.seconds(needs)
                + ": a " + Figures.seconds(rule.windowSeconds()) + " window, held "
                + Figures.seconds(rule.holdSeconds()) + ")");
    }

    /**
     * Each disruption that ran with what the clients saw from its start until the workload was back (its recovery
     * time), or until its horizon when it was not: failed attempts by class, from every interval that overlaps.
     */
    private static List<DisruptionRecord> withFailures(List<DisruptionRecord> judged, List<Horizon> horizons,
                                                       Timeline timeline) {
        List<Map<String, Long>> seen = new ArrayList<>();
        double[][] spans = new double[judged.size()][];
        for (int k = 0; k < judged.size(); k++) {
            DisruptionRecord d = judged.get(k);
            seen.add(new java.util.TreeMap<>());
            if (horizons.get(k) != null) {
                double until = d.recoverySeconds() != null ? d.endSeconds() + d.recoverySeconds()
                        : Math.max(d.endSeconds(), horizons.get(k).at());
                spans[k] = new double[] {d.startSeconds(), until};
            }
        }
        timeline.forEach(i -> {
            for (int k = 0; k < spans.length; k++) {
                if (spans[k] != null && i.t() > spans[k][0] + 1e-9 && i.t() - i.seconds() < spans[k][1] - 1e-9) {
                    Map<String, Long> m = seen.get(k);
                    i.failures().forEach((cls, n) -> m.merge(cls, n, Long::sum));
                }
            }
        });
        List<DisruptionRecord> out = new ArrayList<>();
        for (int k = 0; k < judged.size(); k++) {
            out.add(spans[k] == null ? judged.get(k) : judged.get(k).withFailures(seen.get(k)));
        }
        return out;
    }

    /** Until when a disruption's recovery is awaited, and what ends the wait there, in words. */
    record Horizon(double at, String what) {
    }

    /**
     * The end of the phase holding {@code d}'s end and of the {@code recoveryPhases} right after it ({@code runEnd},
     * the last interval's end, when no phase holds it), or the start of the next disruption to begin after its end
     * when that is sooner: what happens after it is the next one's to answer for. One that began before its end
     * overlaps it, and it is judged with the other on.
     */
    private static Horizon horizon(RunResult run, DisruptionRecord d, Set<String> recoveryPhases, double runEnd) {
        double t = d.endSeconds();
        Horizon horizon = new Horizon(Double.isNaN(runEnd) ? t : runEnd, "the run's end at "
                + Figures.seconds(Double.isNaN(runEnd) ? t : runEnd));
        List<Phase> phases = run.phases();
        for (int i = 0; i < phases.size(); i++) {
            if (t >= phases.get(i).startSeconds() - 1e-6 && t < phases.get(i).endSeconds()) {
                while (i + 1 < phases.size() && recoveryPhases.contains(phases.get(i + 1).name())) {
                    i++;
                }
                Phase p = phases.get(i);
                horizon = new Horizon(p.endSeconds(), "the end of phase " + p.name() + " at "
                        + Figures.seconds(p.endSeconds()));
                break;
            }
        }
        for (DisruptionRecord next : run.disruptions()) {
            // One that overlaps this one (began before its end) does not end the wait: it is judged with it on.
            if (next == d || next.startSeconds() == null || next.startSeconds() < t - 1e-9) {
                continue;
            }
            if (next.startSeconds() < horizon.at()) {
                horizon = new Horizon(next.startSeconds(), "the next disruption, " + next.name() + ", at "
                        + Figures.seconds(next.startSeconds()));
            }
        }
        return horizon;
    }

    /**
     * What recovery is measured against: the baseline phase's throughput and p95 of the rule's operation, the range a
     * window must be back inside ({@code floorOpsPerSecond}, {@code ceilingP95Ms}), and the share of the windows of a
     * hold that must be inside it ({@code holdShare}: the share of the baseline's own windows that were, less a tenth,
     * between a half and nine tenths).
     */
    public record Baseline(double opsPerSecond, double p95Ms, double floorOpsPerSecond, double ceilingP95Ms,
                           double holdShare) {

        /** Whether a window of {@code rate} commits a second at {@code p95} ms is inside the range. */
        boolean inside(double rate, double p95) {
            return rate >= floorOpsPerSecond && p95 <= ceilingP95Ms;
        }
    }

    /** The rule's operation in one interval: its commits and their latencies (all operations when it names none). */
    private record Share(long count, Histogram latency) {

        static Share of(Interval interval, RecoveryRule rule) {
            Histogram h = new Histogram(3);
            long n = 0;
            for (Map.Entry<String, IntervalOperation> op : interval.operations().entrySet()) {
                if (rule.operation() == null || rule.operation().equals(op.getKey())) {
                    n += op.getValue().count();
                    if (op.getValue().histogram() != null) {
                        h.add(HistogramCodec.decode(op.getValue().histogram()));
                    }
                }
            }
            return new Share(n, h);
        }
    }

    /** The baseline phase's intervals, summed as they come, and the figures of each whole window inside it. */
    public static final class BaselineSum {
        private static final double LOW_WINDOW = 10;
        private static final double HIGH_WINDOW = 90;

        private final RecoveryRule rule;
        private final Histogram latency = new Histogram(3);
        private final RollingWindow window;
        private final List<double[]> windows = new ArrayList<>();
        private double seconds;
        private long count;

        public BaselineSum(RecoveryRule rule) {
            this.rule = rule;
            this.window = new RollingWindow(rule);
        }

        /** Any interval: those of the baseline phase count. */
        public void add(Interval interval) {
            if (rule.baselinePhase().equals(interval.phase())) {
                window.add(interval);
                Share s = Share.of(interval, rule);
                seconds += interval.seconds();
                count += s.count();
                latency.add(s.latency());
                double[] figures = window.wholeIn(rule.baselinePhase());
                if (figures != null) {
                    windows.add(figures);
                }
            }
        }

        /** The baseline, if its phase committed anything. */
        public Optional<Baseline> baseline() {
            if (seconds <= 0 || count == 0) {
                return Optional.empty();
            }
            double rate = count / seconds;
            double p95 = latency.getValueAtPercentile(95) / 1e6;
            double floor = (1 - rule.tolerance()) * rate;
            double ceiling = rule.latencyFactor() * p95;
            if (!windows.isEmpty()) {
                floor = Math.min(floor, percentile(windows, 0, LOW_WINDOW));
                ceiling = Math.max(ceiling, percentile(windows, 1, HIGH_WINDOW));
            }
            double f = floor;
            double c = ceiling;
            double inside = windows.isEmpty() ? 1.0
                    : windows.stream().filter(w -> w[0] >= f && w[1] <= c).count() / (double) windows.size();
            return Optional.of(new Baseline(rate, p95, floor, ceiling, Math.max(0.5, Math.min(0.9, inside - 0.1))));
        }

        /** The {@code p}th percentile (nearest rank) of the windows' figure {@code k}. */
        private static double percentile(List<double[]> windows, int k, double p) {
            double[] values = windows.stream().mapToDouble(w -> w[k]).sorted().toArray();
            int rank = (int) Math.ceil(p / 100 * values.length);
            return values[Math.max(0, Math.min(values.length - 1, rank - 1))];
        }
    }

    /** The intervals ending within the rule's window of the latest one, and their sums. */
    public static final class RollingWindow {
        private final RecoveryRule rule;
        private final Deque<Entry> entries = new ArrayDeque<>();
        private final Histogram latency = new Histogram(3);

        private record Entry(double t, double seconds, String phase, Share share) {
        }

        public RollingWindow(RecoveryRule rule) {
            this.rule = rule;
        }

        /** The next interval; those that end a window or more before it leave. */
        public void add(Interval interval) {
            Share s = Share.of(interval, rule);
            entries.addLast(new Entry(interval.t(), interval.seconds(), interval.phase(), s));
            latency.add(s.latency());
            double window = rule.window().toNanos() / 1e9;
            while (entries.peekFirst().t() <= interval.t() - window + 1e-6) {
                latency.subtract(entries.removeFirst().share().latency());
            }
        }

        /** Whether the window ending with the latest interval is inside the baseline's range. */
        public boolean healthy(Baseline baseline) {
            double[] figures = figures();
            return figures != null && baseline.inside(figures[0], figures[1]);
        }

        /** The window's throughput and p95 (ms); null when nothing committed in it. */
        private double[] figures() {
            // Summed from the latest back, afresh each time: a running sum of seconds would drift off a boundary.
            double seconds = 0;
            long count = 0;
            for (java.util.Iterator<Entry> e = entries.descendingIterator(); e.hasNext(); ) {
                Entry entry = e.next();
                seconds += entry.seconds();
                count += entry.share().count();
            }
            if (seconds <= 0 || count == 0) {
                return null;
            }
            return new double[] {count / seconds, latency.getValueAtPercentile(95) / 1e6};
        }

        /**
         * The figures of the window ending with the latest interval when it is a whole window of {@code phase}'s
         * intervals (as long as the rule's window, every interval in it of that phase) in which something committed;
         * else null.
         */
        double[] wholeIn(String phase) {
            double seconds = 0;
            for (Entry e : entries) {
                if (!phase.equals(e.phase())) {
                    return null;
                }
                seconds += e.seconds();
            }
            if (seconds < rule.windowSeconds() - 1e-6) {
                return null;
            }
            // A window in which nothing committed has no p95 to set a ceiling by: left out (an outage in the
            // baseline must not make anything that commits count as back).
            return figures();
        }
    }

    /**
     * One disruption's recovery, heard interval by interval: from its {@code end}, recovered at the first window back
     * inside the baseline's range from which the windows of the next hold time are inside it at least as often as the
     * baseline's {@linkplain Baseline#holdShare hold share}; over once the {@code horizon} passes first. When it is
     * over unrecovered, it says whether the workload was ever back ({@link #back}), whether a hold that had room to
     * complete failed ({@link #holdFailed}) and the hold still running when the horizon cut it short ({@link #cut}).
     */
    public static final class Recovery {
        private final double end;
        private final double horizon;
        private final double hold;
        private final double share;
        /** The windows heard since the candidate start (the first one inside the range), by their end and verdict. */
        private final Deque<double[]> heard = new ArrayDeque<>();
        private Double seconds;
        private boolean over;
        /** The end of the first window back inside the range after the end, if any was by the horizon. */
        private Double back;
        /** Whether a hold that had room to complete was judged and did not hold. */
        private boolean holdFailed;
        /** The end of the last interval heard at all, of the last one heard since the end, and the latest spacing. */
        private double lastCall = Double.NaN;
        private double last = Double.NaN;
        private double step = Double.NaN;

        public Recovery(RecoveryRule rule, Baseline baseline, double end, double horizon) {
            this.end = end;
            this.horizon = horizon;
            this.hold = rule.hold().toNanos() / 1e9;
            this.share = baseline.holdShare();
        }

        /** The interval ending at {@code t}, whose window is {@code healthy} or not; true once recovered. */
        public boolean hear(double t, boolean healthy) {
            if (!over) {
                if (!Double.isNaN(lastCall) && t > lastCall) {
                    step = t - lastCall;
                }
                lastCall = t;
            }
            if (over || t < end + 1e-9) {
                return seconds != null;
            }
            if (t > horizon + 1e-6) {
                over = true;
                return false;
            }
            last = t;
            if (healthy && back == null) {
                back = t;
            }
            heard.addLast(new double[] {t, healthy ? 1 : 0});
            while (true) {
                while (!heard.isEmpty() && heard.peekFirst()[1] == 0) {
                    heard.removeFirst();
                }
                if (heard.isEmpty() || t - heard.peekFirst()[0] < hold - 1e-6) {
                    return false;
                }
                long inside = heard.stream().filter(w -> w[1] == 1).count();
                if (inside >= share * heard.size() - 1e-9) {
                    // Recovered when the window ending with the first one back first looked like the baseline.
                    seconds = Math.max(0, heard.peekFirst()[0] - end);
                    over = true;
                    return true;
                }
                holdFailed = true;
                heard.removeFirst();
            }
        }

        /** Seconds from the end until recovered, or empty when it was not. */
        public Optional<Double> seconds() {
            return Optional.ofNullable(seconds);
        }

        /** When the first window back inside the range after the end ended, or empty when none did by the horizon. */
        public Optional<Double> back() {
            return Optional.ofNullable(back);
        }

        /** Whether a hold that had room to complete before the horizon was judged and did not hold. */
        public boolean holdFailed() {
            return holdFailed;
        }

        /**
         * Unrecovered, the hold still running when the last interval before the horizon was heard: when it began (the
         * end of its first window back) and how long it had held by then. Empty when none was, or when the one running
         * had already failed: too few of its windows inside the range for the share even were every window left in it
         * inside (a candidate after it is asked the same).
         */
        public Optional<double[]> cut() {
            if (seconds != null) {
                return Optional.empty();
            }
            Deque<double[]> left = new ArrayDeque<>(heard);
            while (true) {
                while (!left.isEmpty() && left.peekFirst()[1] == 0) {
                    left.removeFirst();
                }
                if (left.isEmpty()) {
                    return Optional.empty();
                }
                double start = left.peekFirst()[0];
                long inside = left.stream().filter(w -> w[1] == 1).count();
                // The windows its hold has still to hear, counted generously (one more for the intervals' jitter,
                // spaced by the last ones heard): a hold is given up only when sure.
                double more = Double.isNaN(step) ? Double.POSITIVE_INFINITY
                        : Math.max(0, Math.ceil((start + hold - last) / step - 1e-6)) + 1;
                if (Double.isInfinite(more) || inside + more >= share * (left.size() + more) - 1e-9) {
                    return Optional.of(new double[] {start, last - start});
                }
                left.removeFirst();
            }
        }
    }
}

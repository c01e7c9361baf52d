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
 *   <li><b>recovery time</b> of each disruption: from its end until the rolling throughput of the rule's operation is
 *       back within the tolerance of the baseline phase's and its rolling p95 at most the latency factor times the
 *       baseline's, both holding for the rule's hold time; "not recovered" when that never happens before the phase
 *       the disruption ended in is over;</li>
 *   <li><b>unavailability</b>: the seconds of intervals in which nothing committed, over the run
 *       ({@code unavailableSeconds}) and per phase ({@code unavailableSeconds.PHASE}).</li>
 * </ul>
 *
 * Throughput at or above the baseline counts as recovered (a backlog drained fast is not a fault). The rolling window
 * sums the intervals' histograms, so its p95 is exact at the histograms' precision.
 *
 * <p>Runs through faults are judged by it as they end, and {@code report merge} judges the merged timeline of their
 * driver processes again by the rule each result records ({@link RecoveryRule}); a plan's phase
 * {@code until: recovered} ends by its parts, heard interval by interval.
 *
 * <p>It reads the run's every reporting interval (its {@link Timeline}: a long run's from its timeline file) twice,
 * one at a time, keeping the baseline's sums, a window's intervals and a few numbers per interval: a 12-hour run at
 * one-second intervals is judged in a few megabytes.
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
        for (DisruptionRecord d : run.disruptions()) {
            boolean ran = d.startSeconds() != null && d.endSeconds() != null;
            recoveries.add(ran && baseline.isPresent() ? new Recovery(rule, d.endSeconds(),
                    horizon(run, d.endSeconds(), recoveryPhases, runEnd)) : null);
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
            judged.add(r == null ? d : d.withRecovery(r.seconds().orElse(null)));
        }
        Metrics metrics = Metrics.of(run);
        metrics.add(UNAVAILABLE, total[0], MetricInfo.lower());
        for (Phase p : run.phases()) {
            metrics.add(UNAVAILABLE + "." + p.name(), unavailable.getOrDefault(p.name(), 0.0), MetricInfo.lower());
        }
        if (baseline.isPresent()) {
            metrics.add("baselineOpsPerSecond", baseline.get().opsPerSecond(), MetricInfo.higher());
            metrics.add("baselineP95Ms", baseline.get().p95Ms(), MetricInfo.lower());
        }
        return run.toBuilder().metrics(metrics).disruptions(judged).recoveryRule(rule).build();
    }

    /**
     * The end of the phase holding {@code t} and of the {@code recoveryPhases} right after it ({@code runEnd}, the
     * last interval's end, when no phase holds it; {@code t} when there is no interval).
     */
    private static double horizon(RunResult run, double t, Set<String> recoveryPhases, double runEnd) {
        List<Phase> phases = run.phases();
        for (int i = 0; i < phases.size(); i++) {
            if (t >= phases.get(i).startSeconds() - 1e-6 && t < phases.get(i).endSeconds()) {
                while (i + 1 < phases.size() && recoveryPhases.contains(phases.get(i + 1).name())) {
                    i++;
                }
                return phases.get(i).endSeconds();
            }
        }
        return Double.isNaN(runEnd) ? t : runEnd;
    }

    /** What recovery is measured against: the baseline phase's throughput and p95 of the rule's operation. */
    public record Baseline(double opsPerSecond, double p95Ms) {
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

    /** The baseline phase's intervals, summed as they come. */
    public static final class BaselineSum {
        private final RecoveryRule rule;
        private final Histogram latency = new Histogram(3);
        private double seconds;
        private long count;

        public BaselineSum(RecoveryRule rule) {
            this.rule = rule;
        }

        /** Any interval: those of the baseline phase count. */
        public void add(Interval interval) {
            if (rule.baselinePhase().equals(interval.phase())) {
                Share s = Share.of(interval, rule);
                seconds += interval.seconds();
                count += s.count();
                latency.add(s.latency());
            }
        }

        /** The baseline, if its phase committed anything. */
        public Optional<Baseline> baseline() {
            if (seconds <= 0 || count == 0) {
                return Optional.empty();
            }
            return Optional.of(new Baseline(count / seconds, latency.getValueAtPercentile(95) / 1e6));
        }
    }

    /** The intervals ending within the rule's window of the latest one, and their sums. */
    public static final class RollingWindow {
        private final RecoveryRule rule;
        private final Deque<Entry> entries = new ArrayDeque<>();
        private final Histogram latency = new Histogram(3);

        private record Entry(double t, double seconds, Share share) {
        }

        public RollingWindow(RecoveryRule rule) {
            this.rule = rule;
        }

        /** The next interval; those that end a window or more before it leave. */
        public void add(Interval interval) {
            Share s = Share.of(interval, rule);
            entries.addLast(new Entry(interval.t(), interval.seconds(), s));
            latency.add(s.latency());
            double window = rule.window().toNanos() / 1e9;
            while (entries.peekFirst().t() <= interval.t() - window + 1e-6) {
                latency.subtract(entries.removeFirst().share().latency());
            }
        }

        /** Whether the window ending with the latest interval is within the rule of the baseline. */
        public boolean healthy(Baseline baseline) {
            // Summed from the latest back, afresh each time: a running sum of seconds would drift off a boundary.
            double seconds = 0;
            long count = 0;
            for (java.util.Iterator<Entry> e = entries.descendingIterator(); e.hasNext(); ) {
                Entry entry = e.next();
                seconds += entry.seconds();
                count += entry.share().count();
            }
            if (seconds <= 0 || count == 0) {
                return false;
            }
            double rate = count / seconds;
            double p95 = latency.getValueAtPercentile(95) / 1e6;
            return rate >= (1 - rule.tolerance()) * baseline.opsPerSecond()
                    && p95 <= rule.latencyFactor() * baseline.p95Ms();
        }
    }

    /**
     * One disruption's recovery, heard interval by interval: from its {@code end}, recovered when the windows have
     * been healthy for the hold time (counted from the first interval of that healthy stretch), not recovered when
     * the {@code horizon} passes first.
     */
    public static final class Recovery {
        private final double end;
        private final double horizon;
        private final double hold;
        private double since = Double.NaN;
        private Double seconds;
        private boolean over;

        public Recovery(RecoveryRule rule, double end, double horizon) {
            this.end = end;
            this.horizon = horizon;
            this.hold = rule.hold().toNanos() / 1e9;
        }

        /** The interval ending at {@code t}, whose window is {@code healthy} or not; true once recovered. */
        public boolean hear(double t, boolean healthy) {
            if (over || t < end + 1e-9) {
                return seconds != null;
            }
            if (t > horizon + 1e-6) {
                over = true;
                return false;
            }
            if (!healthy) {
                since = Double.NaN;
                return false;
            }
            if (Double.isNaN(since)) {
                since = t;
            }
            if (t - since >= hold - 1e-6) {
                // Recovered when the window ending with the first healthy interval first looked like the baseline.
                seconds = Math.max(0, since - end);
                over = true;
            }
            return seconds != null;
        }

        /** Seconds from the end until recovered, or empty when it was not. */
        public Optional<Double> seconds() {
            return Optional.ofNullable(seconds);
        }
    }
}

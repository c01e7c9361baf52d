package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import java.util.ArrayList;
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
 */
public final class RecoveryAnalysis {

    public static final String UNAVAILABLE = "unavailableSeconds";

    private final RecoveryRule rule;
    private final List<Interval> intervals = new ArrayList<>();
    /** Per interval, the rule's operation's commits and latencies. */
    private final List<Long> counts = new ArrayList<>();
    private final List<Histogram> latencies = new ArrayList<>();

    /** An analysis of no intervals yet: {@link #add} gives them one at a time, as a run closes them. */
    RecoveryAnalysis(RecoveryRule rule) {
        this.rule = rule;
    }

    /** The next interval of the run. */
    void add(Interval interval) {
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
        intervals.add(interval);
        counts.add(n);
        latencies.add(h);
    }

    /** The result with each disruption's recovery verdict and the unavailability metrics. */
    public static RunResult apply(RunResult run, RecoveryRule rule) {
        return apply(run, rule, Set.of());
    }

    /**
     * The same, a disruption's recovery judged until the end of its phase and of the phases right after it that are
     * {@code recoveryPhases} (a plan's phases {@code until: recovered}: they exist to let it recover).
     */
    public static RunResult apply(RunResult run, RecoveryRule rule, Set<String> recoveryPhases) {
        RecoveryAnalysis a = new RecoveryAnalysis(rule);
        run.intervals().forEach(a::add);
        Optional<double[]> baseline = a.baseline();
        List<DisruptionRecord> judged = new ArrayList<>();
        for (DisruptionRecord d : run.disruptions()) {
            boolean ran = d.startSeconds() != null && d.endSeconds() != null;
            judged.add(ran && baseline.isPresent()
                    ? d.withRecovery(a.recoverySeconds(d.endSeconds(), horizon(run, d.endSeconds(), recoveryPhases),
                    baseline.get())
                    .orElse(null)) : d);
        }
        Metrics metrics = Metrics.of(run);
        metrics.add(UNAVAILABLE, a.unavailableSeconds(null), MetricInfo.lower());
        for (Phase p : run.phases()) {
            metrics.add(UNAVAILABLE + "." + p.name(), a.unavailableSeconds(p.name()), MetricInfo.lower());
        }
        if (baseline.isPresent()) {
            metrics.add("baselineOpsPerSecond", baseline.get()[0], MetricInfo.higher());
            metrics.add("baselineP95Ms", baseline.get()[1], MetricInfo.lower());
        }
        return run.toBuilder().metrics(metrics).disruptions(judged).build();
    }

    /** The baseline phase's throughput (ops/s) and p95 (ms) of the rule's operation, if it has any. */
    Optional<double[]> baseline() {
        double seconds = 0;
        long n = 0;
        Histogram h = new Histogram(3);
        for (int i = 0; i < intervals.size(); i++) {
            if (rule.baselinePhase().equals(intervals.get(i).phase())) {
                seconds += intervals.get(i).seconds();
                n += counts.get(i);
                h.add(latencies.get(i));
            }
        }
        if (seconds <= 0 || n == 0) {
            return Optional.empty();
        }
        return Optional.of(new double[] {n / seconds, h.getValueAtPercentile(95) / 1e6});
    }

    /**
     * Seconds from {@code end} until the workload is back to {@code baseline} (ops/s, p95 ms) and stays so for the
     * hold time, or empty when it is not back before {@code horizon}.
     */
    Optional<Double> recoverySeconds(double end, double horizon, double[] baseline) {
        double hold = rule.hold().toNanos() / 1e9;
        int candidate = -1;
        for (int i = 0; i < intervals.size(); i++) {
            double t = intervals.get(i).t();
            if (t < end + 1e-9) {
                continue;
            }
            if (t > horizon + 1e-6) {
                break;
            }
            if (!healthy(i, baseline)) {
                candidate = -1;
                continue;
            }
            if (candidate < 0) {
                candidate = i;
            }
            double since = intervals.get(candidate).t();
            if (t - since >= hold - 1e-6) {
                // Recovered when the window ending with the candidate interval first looked like the baseline.
                return Optional.of(Math.max(0, since - end));
            }
        }
        return Optional.empty();
    }

    /** Whether the rolling window ending with interval {@code i} is within the rule of the baseline. */
    private boolean healthy(int i, double[] baseline) {
        double window = rule.window().toNanos() / 1e9;
        double end = intervals.get(i).t();
        double seconds = 0;
        long n = 0;
        Histogram h = new Histogram(3);
        for (int j = i; j >= 0 && intervals.get(j).t() > end - window + 1e-6; j--) {
            seconds += intervals.get(j).seconds();
            n += counts.get(j);
            h.add(latencies.get(j));
        }
        if (seconds <= 0 || n == 0) {
            return false;
        }
        double rate = n / seconds;
        double p95 = h.getValueAtPercentile(95) / 1e6;
        return rate >= (1 - rule.tolerance()) * baseline[0] && p95 <= rule.latencyFactor() * baseline[1];
    }

    /** Seconds of intervals in which nothing at all committed, in one phase or (null) the whole run. */
    double unavailableSeconds(String phase) {
        double s = 0;
        for (Interval i : intervals) {
            if ((phase == null || phase.equals(i.phase()))
                    && i.operations().values().stream().mapToLong(IntervalOperation::count).sum() == 0) {
                s += i.seconds();
            }
        }
        return s;
    }

    /**
     * The end of the phase holding {@code t} and of the {@code recoveryPhases} right after it (the run's end when no
     * phase holds it).
     */
    private static double horizon(RunResult run, double t, Set<String> recoveryPhases) {
        List<Phase> phases = run.phases();
        for (int i = 0; i < phases.size(); i++) {
            if (t >= phases.get(i).startSeconds() - 1e-6 && t < phases.get(i).endSeconds()) {
                while (i + 1 < phases.size() && recoveryPhases.contains(phases.get(i + 1).name())) {
                    i++;
                }
                return phases.get(i).endSeconds();
            }
        }
        return run.intervals().isEmpty() ? t : run.intervals().get(run.intervals().size() - 1).t();
    }
}

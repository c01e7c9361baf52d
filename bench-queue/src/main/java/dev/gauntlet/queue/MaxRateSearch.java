package dev.gauntlet.queue;

import dev.gauntlet.core.cli.RunSearch;
import dev.gauntlet.core.report.MarkdownTable;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.queue.figures.Throughput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --find-max-rate}: the highest write rate every group sustains, not the raw insert rate. The first run is
 * unthrottled (the raw insert rate, which readers usually cannot follow); then runs at rising throttles, from
 * {@code --throttle-writes} (or 30% of the raw rate) up by {@code --rate-step} (or 15% of it), until a step fails
 * (when the first already fails, the rate halves until one passes); then steps halve the gap between the best pass
 * and the first failure until it is within 5% of the best pass (at most 16 runs in all). A step is sustained when the writers issued
 * their rate (95%), write p99 from the intended start stays within {@code --max-write-p99}, every group read at
 * least 97% of what was written over the step, every group's lag at the step's end is within {@code --max-lag}, and
 * delivery passed.
 */
final class MaxRateSearch implements RunSearch<RunCommand.Setup> {

    /** The plan of a run at a write rate (0: unthrottled). */
    @FunctionalInterface
    interface RatePlan {
        RunPlan at(RunPlan base, double msgPerSecond);
    }

    /** How a step went. */
    record Verdict(double target, double written, double writeP99Ms, double slowestReadShare, double worstLagMs,
                   boolean sustained, String why) {
    }

    private static final int MAX_STEPS = 16;
    /** The search stops once the best pass and the first failure are this close (a share of the best pass). */
    private static final double RESOLUTION = 0.05;

    private final RatePlan plan;
    private final int writeBatch;
    private final double maxWriteP99Ms;
    private final double maxLagMs;
    private final double start;
    private final double step;
    private final Map<String, String> reads;
    private final List<Double> targets = new ArrayList<>();

    MaxRateSearch(RatePlan plan, int writeBatch, Duration maxWriteP99, Duration maxLag, double start, double step,
                  Map<String, String> reads) {
        this.plan = plan;
        this.writeBatch = writeBatch;
        this.maxWriteP99Ms = maxWriteP99.toNanos() / 1e6;
        this.maxLagMs = maxLag.toNanos() / 1e6;
        this.start = start;
        this.step = step;
        this.reads = reads;
    }

    @Override
    public Step next(RunCommand.Setup s, RunPlan base, List<RunResult> done) {
        double rate;
        if (done.isEmpty()) {
            rate = 0;
        } else {
            double raw = written(done.get(0));
            double by = step > 0 ? step : roundToBatch(0.15 * raw);
            List<Verdict> verdicts = verdicts(done);
            double bestPass = verdicts.stream().filter(Verdict::sustained).mapToDouble(Verdict::target).max().orElse(0);
            double firstFail = verdicts.stream().filter(v -> !v.sustained()).mapToDouble(Verdict::target).min()
                    .orElse(Double.NaN);
            if (done.size() >= MAX_STEPS) {
                return null;
            } else if (verdicts.isEmpty()) {
                rate = start > 0 ? start : roundToBatch(0.3 * raw);
            } else if (Double.isNaN(firstFail)) {
                rate = verdicts.get(verdicts.size() - 1).target() + by;
            } else if (bestPass == 0) {
                rate = roundToBatch(firstFail / 2); // nothing sustained yet: halve until something is
                if (rate >= firstFail) {
                    return null;
                }
            } else if (firstFail - bestPass > Math.max(2 * writeBatch, RESOLUTION * bestPass)) {
                rate = roundToBatch((bestPass + firstFail) / 2);
            } else {
                return null;
            }
        }
        s.throttle = rate;
        targets.add(rate);
        return new Step(rate == 0 ? "unthrottled" : String.format(Locale.ROOT, "rate-%.0f", rate),
                plan.at(base, rate));
    }

    private double roundToBatch(double msgPerSecond) {
        return Math.max(writeBatch, Math.round(msgPerSecond / writeBatch) * (double) writeBatch);
    }

    private static double written(RunResult r) {
        return r.metrics().getOrDefault("writeMsgPerSecond", 0.0);
    }

    /** The throttled steps' verdicts, in order. */
    private List<Verdict> verdicts(List<RunResult> done) {
        List<Verdict> v = new ArrayList<>();
        for (int i = 1; i < done.size(); i++) {
            v.add(verdict(targets.get(i), done.get(i)));
        }
        return v;
    }

    Verdict verdict(double target, RunResult r) {
        double written = written(r);
        double p99 = r.operation(Throughput.WRITE).map(o -> o.latencyMs() == null ? Double.NaN : o.latencyMs().p99())
                .orElse(Double.NaN);
        double slowest = Double.POSITIVE_INFINITY;
        String slowestGroup = "";
        for (Map.Entry<String, String> g : reads.entrySet()) {
            double share = written > 0 ? Throughput.readMsgPerSecond(r, g.getValue()) / written : 0;
            if (share < slowest) {
                slowest = share;
                slowestGroup = g.getKey().isEmpty() ? "the readers" : "group " + g.getKey().substring(1);
            }
        }
        double lag = finalLagMs(r);
        List<String> why = new ArrayList<>();
        if (target > 0 && written < 0.95 * target) {
            why.add(String.format(Locale.ROOT, "writers reached %,.0f of %,.0f msg/s", written, target));
        }
        if (!(p99 <= maxWriteP99Ms)) {
            why.add(String.format(Locale.ROOT, "write p99 %.1f ms > %.0f ms", p99, maxWriteP99Ms));
        }
        if (slowest < 0.97) {
            why.add(String.format(Locale.ROOT, "%s read %.0f%% of what was written", slowestGroup, 100 * slowest));
        }
        if (lag > maxLagMs) {
            why.add(String.format(Locale.ROOT, "lag %.1f s at the end > %.1f s", lag / 1000, maxLagMs / 1000));
        }
        if (r.checkStatus() == Check.Status.FAIL) {
            why.add("delivery failed");
        }
        return new Verdict(target, written, p99, slowest, lag, why.isEmpty(),
                why.isEmpty() ? "sustained" : String.join("; ", why));
    }

    /** The largest lag gauge (milliseconds) in the last measured interval; 0 when none was recorded. */
    private static double finalLagMs(RunResult r) {
        List<Interval> intervals = r.intervals();
        for (int i = intervals.size() - 1; i >= 0; i--) {
            Interval last = intervals.get(i);
            boolean measured = r.phases().stream().anyMatch(p -> p.name().equals(last.phase()) && p.isMeasured());
            if (measured) {
                return last.gauges().entrySet().stream().filter(e -> e.getKey().startsWith("lagMillis"))
                        .mapToDouble(Map.Entry::getValue).max().orElse(0);
            }
        }
        return 0;
    }

    @Override
    public String summary(List<RunResult> done) {
        StringBuilder md = new StringBuilder("# Highest sustained write rate\n\n");
        if (done.isEmpty()) {
            return md.append("No step ran.\n").toString();
        }
        double raw = written(done.get(0));
        double mibPerMsg = done.get(0).metrics().getOrDefault("writeMiBPerSecond", 0.0) / Math.max(raw, 1e-9);
        List<Verdict> verdicts = verdicts(done);
        Verdict best = verdicts.stream().filter(Verdict::sustained).max(java.util.Comparator.comparingDouble(Verdict::target))
                .orElse(null);
        md.append(best == null ? "**No throttled step was sustained.**"
                        : String.format(Locale.ROOT, "**Highest sustained: %,.0f msg/s (%.2f MiB/s)**",
                        best.written(), best.written() * mibPerMsg))
                .append(String.format(Locale.ROOT, "; raw insert rate (unthrottled writers, readers running): %,.0f "
                        + "msg/s (%.2f MiB/s), %s.%n%n", raw, raw * mibPerMsg,
                        verdict(0, done.get(0)).slowestReadShare() >= 0.97 ? "readers kept up"
                                : "readers did not keep up"))
                .append(String.format(Locale.ROOT, "A step is sustained when the writers reach 95%% of their rate, "
                        + "write p99 (from the intended start) is at most %.0f ms, every group reads at least 97%% of "
                        + "what was written, every group's lag at the step's end is at most %.1f s, and delivery "
                        + "passes. Each step is its own run (directory `step-NN-...`) from empty tables.%n%n",
                        maxWriteP99Ms, maxLagMs / 1000));
        MarkdownTable t = new MarkdownTable().left("step").right("target msg/s", "written msg/s", "write p99 ms",
                "slowest group read", "lag at end s").left("verdict");
        for (int i = 0; i < done.size(); i++) {
            Verdict v = verdict(targets.get(i), done.get(i));
            t.row(String.valueOf(i + 1), v.target() == 0 ? "unthrottled" : String.format(Locale.ROOT, "%,.0f", v.target()),
                    String.format(Locale.ROOT, "%,.0f", v.written()), String.format(Locale.ROOT, "%.1f", v.writeP99Ms()),
                    String.format(Locale.ROOT, "%.1f%%", 100 * v.slowestReadShare()),
                    String.format(Locale.ROOT, "%.2f", v.worstLagMs() / 1000), i == 0 ? "raw insert rate" : v.why());
        }
        return md.append(t.render()).append('\n').toString();
    }
}

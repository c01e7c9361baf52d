package dev.gauntlet.queue;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.search.Pacing;
import dev.gauntlet.queue.figures.Throughput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --find-max-rate} on a queue: the rate is the writers' ({@code --throttle-writes}, messages a second, whole
 * batches), the first step unthrottled (the raw insert rate, which readers usually cannot follow), so the search
 * starts at 30% of it; and a step is sustained only when every consumer group kept up: read at least 97% of what was
 * written over the step, and at most {@code --max-lag} behind at its end. The write p99 budget is an objective
 * ({@code p99(write) <= --max-write-p99}, the default when no {@code --slo} is given).
 */
final class QueuePacing implements Pacing<RunCommand.Setup> {

    /** The plan of a run at a write rate (0: unthrottled). */
    @FunctionalInterface
    interface RatePlan {
        RunPlan at(RunPlan base, double msgPerSecond);
    }

    private static final double READ_SHARE = 0.97;

    private final RatePlan plan;
    private final int writeBatch;
    private final double firstRate;
    private final Duration maxLag;
    private final Map<String, String> reads;

    QueuePacing(RatePlan plan, int writeBatch, double firstRate, Duration maxLag, Map<String, String> reads) {
        this.plan = plan;
        this.writeBatch = writeBatch;
        this.firstRate = firstRate;
        this.maxLag = maxLag;
        this.reads = reads;
    }

    @Override
    public RunPlan at(RunCommand.Setup s, RunPlan base, double rate) {
        s.throttle = rate;
        return plan.at(base, rate);
    }

    @Override
    public double achieved(RunResult r) {
        return r.metrics().getOrDefault("writeMsgPerSecond", 0.0);
    }

    @Override
    public double start(RunPlan base) {
        return firstRate;
    }

    @Override
    public double round(double msgPerSecond) {
        return Math.max(writeBatch, Math.round(msgPerSecond / writeBatch) * (double) writeBatch);
    }

    @Override
    public String unit() {
        return "msg/s";
    }

    @Override
    public double startShare() {
        return 0.3;
    }

    @Override
    public double finest() {
        return 2.0 * writeBatch;
    }

    @Override
    public String criterion() {
        return String.format(Locale.ROOT, "every consumer group reads at least %.0f%% of what was written and is at "
                + "most %.1f s behind at the step's end (--max-lag)", 100 * READ_SHARE, maxLag.toMillis() / 1000.0);
    }

    @Override
    public List<String> failures(RunResult r) {
        List<String> why = new ArrayList<>();
        double written = achieved(r);
        for (Map.Entry<String, String> g : reads.entrySet()) {
            double share = written > 0 ? Throughput.readMsgPerSecond(r, g.getValue()) / written : 0;
            if (share < READ_SHARE) {
                why.add(String.format(Locale.ROOT, "%s read %.0f%% of what was written",
                        g.getKey().isEmpty() ? "the readers" : "group " + g.getKey().substring(1), 100 * share));
            }
        }
        double lagMs = finalLagMs(r);
        if (lagMs > maxLag.toMillis()) {
            why.add(String.format(Locale.ROOT, "lag %.1f s at the end > %.1f s", lagMs / 1000, maxLag.toMillis() / 1000.0));
        }
        return why;
    }

    /** The slowest consumer group's read share and the lag at the step's end, for the step's line and search.md. */
    @Override
    public List<String> figures(RunResult r) {
        double written = achieved(r);
        double slowest = reads.values().stream()
                .mapToDouble(op -> written > 0 ? Throughput.readMsgPerSecond(r, op) / written : 0).min().orElse(0);
        return List.of(String.format(Locale.ROOT, "slowest group read %.1f%%", 100 * slowest),
                String.format(Locale.ROOT, "lag at end %.2f s", finalLagMs(r) / 1000));
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
}

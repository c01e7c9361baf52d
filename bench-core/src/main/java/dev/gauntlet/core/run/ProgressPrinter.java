package dev.gauntlet.core.run;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * The live progress line, one per operation per interval, in the layout users of cockroach
 * {@code workload} know: elapsed, errors, retries, interval and cumulative ops/s, p50/p95/p99/max in ms.
 * Cumulative figures restart when the warm-up ends, because warm-up is excluded from results.
 */
public final class ProgressPrinter implements RunListener {

    private static final String HEADER =
            "_elapsed___errors__retries__ops/sec(inst)___ops/sec(cum)__p50(ms)__p95(ms)__p99(ms)_pMax(ms)";
    private static final int HEADER_EVERY = 20;

    private final PrintStream out;
    private int linesSinceHeader = HEADER_EVERY;

    public ProgressPrinter(PrintStream out) {
        this.out = out;
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
        for (Map.Entry<String, IntervalOperation> e : interval.operations().entrySet()) {
            if (linesSinceHeader >= HEADER_EVERY) {
                out.println(HEADER);
                linesSinceHeader = 0;
            }
            IntervalOperation op = e.getValue();
            long cumulative = cumulativeCounts.getOrDefault(e.getKey(), 0L);
            out.println(line(interval.t(), op, phaseSeconds > 0 ? cumulative / phaseSeconds : 0, e.getKey()));
            linesSinceHeader++;
        }
        out.flush();
    }

    static String line(double elapsedSeconds, IntervalOperation op, double cumulativeOpsPerSecond, String name) {
        return String.format(Locale.ROOT, "%7.1fs %8d %8d %14.1f %14.1f %8.1f %8.1f %8.1f %8.1f %s",
                elapsedSeconds, op.errors(), op.retries(), op.opsPerSecond(), cumulativeOpsPerSecond,
                op.p50(), op.p95(), op.p99(), op.max(), name);
    }

    @Override
    public void onPhaseStart(String phase, double startSeconds) {
        if (startSeconds > 0 && !Phase.MEASURE.equals(phase)) {
            out.printf(Locale.ROOT, "-- phase %s begins at %.1fs%n", phase, startSeconds);
        }
    }

    @Override
    public void onPhaseEnd(Phase phase) {
        if (phase.name().equals(Phase.PRIME)) {
            out.printf(Locale.ROOT, "-- primed for %.1fs (not measured: the driver's classes loaded, its code compiled, "
                    + "its connections open); the run's schedule starts here%n", phase.endSeconds());
        } else if (phase.name().equals(Phase.WARMUP)) {
            out.printf(Locale.ROOT, "-- warm-up ended at %.1fs; measuring from here (cumulative figures restart)%n",
                    phase.endSeconds());
        }
        linesSinceHeader = HEADER_EVERY;
    }
}

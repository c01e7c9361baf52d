package dev.gauntlet.core.run;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Phase;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Progress of a run through faults, one line per interval (a second, usually) so that a fault shows the moment it
 * bites: elapsed time, phase, what committed per second over all operations, the worst operation's p95, and the
 * interval's failures by class. A banner marks each phase.
 *
 * <pre>
 *   elapsed  phase               commits/s   p95(ms)  failures
 *    101.0s  disk-stalls               0.0       0.0  -
 *    106.0s  disk-stalls             512.0    4310.2  -
 * </pre>
 */
public final class TimelineProgress implements RunListener {

    private final PrintStream out;

    public TimelineProgress(PrintStream out) {
        this.out = out;
    }

    @Override
    public void onPhaseStart(String phase, double startSeconds) {
        out.printf(Locale.ROOT, "== %s (from %.0fs) ==%n  elapsed  %-18s %10s %9s  %s%n", phase, startSeconds,
                "phase", "commits/s", "p95(ms)", "failures");
    }

    @Override
    public void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
        double rate = 0;
        double p95 = 0;
        for (IntervalOperation op : interval.operations().values()) {
            rate += op.opsPerSecond();
            if (op.count() > 0) {
                p95 = Math.max(p95, op.p95());
            }
        }
        StringBuilder failures = new StringBuilder();
        interval.failures().forEach((k, v) -> failures.append(failures.length() == 0 ? "" : ", ").append(k).append(' ')
                .append(v));
        out.printf(Locale.ROOT, "%8.1fs  %-18s %10.1f %9.1f  %s%n", interval.t(), interval.phase(), rate, p95,
                failures.length() == 0 ? "-" : failures);
    }

    @Override
    public void onPhaseEnd(Phase phase) {
    }
}

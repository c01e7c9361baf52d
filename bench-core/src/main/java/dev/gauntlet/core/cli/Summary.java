package dev.gauntlet.core.cli;

import dev.gauntlet.core.report.Transient;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Saturation;
import dev.gauntlet.core.result.WorkerShare;
import java.util.Locale;
import java.util.Map;

/** The end-of-run table on the console, in the layout of cockroach {@code workload}'s final summary. */
public final class Summary {

    private static final String HEADER =
            "_elapsed___errors__retries_____ops(total)___ops/sec(cum)__avg(ms)__p50(ms)__p95(ms)__p99(ms)_pMax(ms)__name";

    private Summary() {
    }

    public static String of(RunResult r) {
        return of(r, false);
    }

    /** @param primeGiven whether the user gave {@code --prime} ({@link PrimeOutcome#warning}) */
    public static String of(RunResult r, boolean primeGiven) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (OperationResult op : r.operations()) {
            LatencySummary l = op.latencyMs();
            b.append(String.format(Locale.ROOT, "%7.1fs %8d %8d %14d %14.1f %8.1f %8.1f %8.1f %8.1f %8.1f  %s%n",
                    r.measuredSeconds(), op.errors(), op.retries(), op.count(), op.opsPerSecond(), l.mean(), l.p50(),
                    l.p95(), l.p99(), l.max(), op.name()));
        }
        // Observed latencies (a queue's end to end) in the order their tools print them: the tail first.
        r.observations().forEach((name, timing) -> {
            LatencySummary l = timing.latencyMs();
            b.append(String.format(Locale.ROOT, "%s (observed, ms): p99 %.1f  p95 %.1f  p50 %.1f  max %.1f  over %,d%n",
                    name, l.p99(), l.p95(), l.p50(), l.max(), timing.count()));
        });
        for (Transient t : Transient.of(r)) {
            b.append(t.line()).append('\n');
        }
        if (r.totalUnissued() > 0) {
            b.append(String.format(Locale.ROOT, "unissued: %,d operations were due before the end but never ran "
                    + "(their wait is in report.md as a lower bound)%n", r.totalUnissued()));
        }
        String unsettled = PrimeOutcome.warning(r.parameters(), r.phases(), primeGiven);
        if (unsettled != null) {
            b.append(unsettled).append('\n');
        }
        Saturation.of(r).filter(Saturation::saturated).ifPresent(s -> b.append(s.warning()).append('\n'));
        long reconnects = r.operations().stream().mapToLong(OperationResult::reconnects).sum();
        if (reconnects > 0) {
            b.append(String.format(Locale.ROOT, "reconnects: %,d attempts to re-open a lost session%n", reconnects));
        }
        long clamped = r.operations().stream().mapToLong(OperationResult::clampedValues).sum();
        if (clamped > 0) {
            b.append(String.format(Locale.ROOT, "warning: %,d latencies exceeded the histograms' 1 h ceiling and "
                    + "were recorded as 1 h%n", clamped));
        }
        for (Map.Entry<String, Double> m : r.metrics().entrySet()) {
            b.append(String.format(Locale.ROOT, "%s: %.2f%n", m.getKey(), m.getValue()));
        }
        if (r.totalErrors() > 0) {
            b.append("Errors:\n");
            for (ErrorCount e : r.errors()) {
                b.append(String.format(Locale.ROOT, "  %-18s %-6s %8d  %s%n", e.errorClass(), e.sqlState(), e.count(),
                        e.example()));
            }
        }
        if (!r.objectives().isEmpty()) {
            b.append("Objectives: ").append(r.missedAnObjective() ? "MISSED" : "MET");
            if (!WorkerShare.of(r).whole()) {
                b.append(" (this driver's part alone: 'report merge' judges the whole run)");
            }
            b.append('\n');
            for (ObjectiveOutcome o : r.objectives()) {
                b.append("  ").append(o.line()).append('\n');
            }
        }
        Check.Status status = r.checkStatus();
        if (status != null) {
            b.append("Audit checks: ").append(status).append('\n');
            for (Check c : r.checks()) {
                if (c.status() == Check.Status.FAIL) {
                    b.append("  FAIL ").append(c.name()).append(": ").append(c.detail()).append('\n');
                }
            }
        }
        return b.toString();
    }
}

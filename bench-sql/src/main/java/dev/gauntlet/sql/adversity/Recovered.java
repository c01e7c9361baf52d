package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.report.RecoveryAnalysis;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.RecoveryRule;
import dev.gauntlet.core.run.Condition;
import java.time.Duration;
import java.util.Optional;

/**
 * A phase's condition {@code until: recovered}: it holds once the workload is back, by the same {@link RecoveryRule}
 * the result's recovery times are judged by ({@link RecoveryAnalysis}), counted from the phase's start: the rolling
 * window back inside the range the baseline phase's own windows held (throughput and p95), and held there for the
 * rule's hold time as often as the baseline's windows were. It reads the intervals as the run closes them and keeps the baseline phase's sums and the
 * rolling window's intervals, nothing more (a run of hours keeps no more than one of minutes); the phase's length is
 * the limit when recovery never comes.
 */
final class Recovered implements Condition {

    private final RecoveryRule rule;
    private final String phase;
    private RecoveryAnalysis.BaselineSum baselineSum;
    private RecoveryAnalysis.RollingWindow window;
    /** The baseline, read when this phase's first interval closes (the baseline phase is over by then). */
    private Optional<RecoveryAnalysis.Baseline> baseline;
    private RecoveryAnalysis.Recovery recovery;
    private volatile boolean recovered;

    /** @param phase the phase this condition ends; it comes after the rule's baseline phase */
    Recovered(RecoveryRule rule, String phase) {
        this.rule = rule;
        this.phase = phase;
        runStarts();
    }

    @Override
    public void observe(Interval closed) {
        window.add(closed);
        baselineSum.add(closed);
        if (!phase.equals(closed.phase()) || recovered) {
            return;
        }
        if (baseline == null) {
            baseline = baselineSum.baseline();
            recovery = baseline.map(b -> new RecoveryAnalysis.Recovery(rule, b, closed.t() - closed.seconds(),
                    Double.MAX_VALUE)).orElse(null);
        }
        recovered = recovery != null && recovery.hear(closed.t(), window.healthy(baseline.get()));
    }

    @Override
    public void runStarts() {
        baselineSum = new RecoveryAnalysis.BaselineSum(rule);
        window = new RecoveryAnalysis.RollingWindow(rule);
        baseline = null;
        recovery = null;
        recovered = false;
    }

    @Override
    public boolean holds(Duration inPhase) {
        return recovered;
    }
}

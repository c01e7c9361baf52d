package dev.gauntlet.sql.adversity;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.run.Condition;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * A phase's condition {@code until: recovered}: it holds once the workload is back, by the same {@link RecoveryRule}
 * the result's recovery times are judged by ({@link RecoveryAnalysis}), counted from the phase's start: the rolling
 * throughput within the tolerance of the baseline phase's and the rolling p95 within the latency factor of its, both
 * for the rule's hold time. It reads the intervals as the run closes them, and keeps only the baseline phase's, its
 * own phase's and the rolling window before it (a run of hours keeps no more); the phase's length is the limit when
 * recovery never comes.
 */
final class Recovered implements Condition {

    private final RecoveryRule rule;
    private final String phase;
    private RecoveryAnalysis seen;
    /** Intervals of the phases in between, as far back as a rolling window reaches. */
    private final Deque<Interval> lately = new ArrayDeque<>();
    /** The baseline, read when this phase's first interval closes (the baseline phase is over by then). */
    private Optional<double[]> baseline;
    private double phaseStart;
    private volatile boolean recovered;

    /** @param phase the phase this condition ends; it comes after the rule's baseline phase */
    Recovered(RecoveryRule rule, String phase) {
        this.rule = rule;
        this.phase = phase;
        this.seen = new RecoveryAnalysis(rule);
    }

    @Override
    public void observe(Interval closed) {
        if (rule.baselinePhase().equals(closed.phase())) {
            seen.add(closed);
        } else if (!phase.equals(closed.phase())) {
            lately.addLast(closed);
            double window = rule.window().toNanos() / 1e9;
            while (lately.peekFirst().t() <= closed.t() - window) {
                lately.removeFirst();
            }
        } else if (!recovered) {
            if (baseline == null) {
                baseline = seen.baseline();
                phaseStart = closed.t() - closed.seconds();
                lately.forEach(seen::add);
                lately.clear();
            }
            seen.add(closed);
            recovered = baseline.isPresent()
                    && seen.recoverySeconds(phaseStart, Double.MAX_VALUE, baseline.get()).isPresent();
        }
    }

    @Override
    public void runStarts() {
        seen = new RecoveryAnalysis(rule);
        lately.clear();
        baseline = null;
        recovered = false;
    }

    @Override
    public boolean holds(Duration inPhase) {
        return recovered;
    }
}

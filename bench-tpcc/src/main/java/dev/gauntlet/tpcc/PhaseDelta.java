package dev.gauntlet.tpcc;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.run.RunListener;
import java.util.Map;

/**
 * A figure read when the measured phase starts (the warm-up's end, or before a run without one) and when it
 * ends, so a run can report how much it rose in between: New-Orders counted by the server, CPU used by the
 * driver.
 */
abstract class PhaseDelta implements RunListener {

    private Long atStart;
    private Long atEnd;

    /** The figure now, or null when it cannot be read (e.g. the server is unreachable). */
    abstract Long read();

    /** Takes the starting figure now: call before a run that has no warm-up. */
    final void startNow() {
        atStart = read();
    }

    @Override
    public final void onInterval(Interval interval, Map<String, Long> cumulativeCounts, double phaseSeconds) {
    }

    @Override
    public final void onPhaseEnd(Phase phase) {
        if (Phase.WARMUP.equals(phase.name())) {
            atStart = read();
        } else {
            atEnd = read();
        }
    }

    /** The rise over the measured phase, or null when either reading failed. */
    final Long delta() {
        return atStart == null || atEnd == null ? null : atEnd - atStart;
    }
}

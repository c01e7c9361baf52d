package dev.gauntlet.core.run;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.Phase;

/** Hears the run as it goes: each interval as it closes, each phase as it starts and ends. Called from one thread. */
public interface RunListener {

    /**
     * @param interval          the interval just closed
     * @param cumulativeCounts  per operation, successes so far in the current phase
     * @param phaseSeconds      seconds elapsed in the current phase
     */
    void onInterval(Interval interval, java.util.Map<String, Long> cumulativeCounts, double phaseSeconds);

    void onPhaseEnd(Phase phase);

    /** A phase begins (its end is not known yet); the first phase's start is the run's. Does nothing by default. */
    default void onPhaseStart(String phase, double startSeconds) {
    }

    /** Tells {@code first}, then {@code second}. */
    static RunListener both(RunListener first, RunListener second) {
        return new RunListener() {
            @Override
            public void onInterval(Interval interval, java.util.Map<String, Long> cumulativeCounts, double phaseSeconds) {
                first.onInterval(interval, cumulativeCounts, phaseSeconds);
                second.onInterval(interval, cumulativeCounts, phaseSeconds);
            }

            @Override
            public void onPhaseEnd(Phase phase) {
                first.onPhaseEnd(phase);
                second.onPhaseEnd(phase);
            }

            @Override
            public void onPhaseStart(String phase, double startSeconds) {
                first.onPhaseStart(phase, startSeconds);
                second.onPhaseStart(phase, startSeconds);
            }
        };
    }

    RunListener NONE = new RunListener() {
        @Override
        public void onInterval(Interval interval, java.util.Map<String, Long> cumulativeCounts, double phaseSeconds) {
        }

        @Override
        public void onPhaseEnd(Phase phase) {
        }
    };
}

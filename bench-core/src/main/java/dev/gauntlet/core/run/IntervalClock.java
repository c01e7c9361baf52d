package dev.gauntlet.core.run;

import java.time.Duration;
import java.util.List;

/**
 * When a run's intervals close: every {@code reportEvery} from the start, and exactly at every phase boundary (the
 * end is one). A phase without a length (a run of so many iterations) never ends by the clock; a phase that ends on
 * its condition ends where {@link #endPhaseAt} says, and the phases after it move up by as much. Read from any
 * thread; moved only by the thread that closes intervals.
 */
final class IntervalClock {

    static final long NO_DEADLINE = Long.MAX_VALUE;

    private final long startNanos;
    private final long everyNanos;
    private volatile long[] phaseEnds;
    /** The ends as planned, before any phase ended early. */
    private final long[] plannedEnds;

    IntervalClock(long startNanos, long everyNanos, List<PhasePlan> timeline) {
        this.startNanos = startNanos;
        this.everyNanos = everyNanos;
        long[] ends = new long[timeline.size()];
        long boundary = startNanos;
        for (int i = 0; i < timeline.size(); i++) {
            Duration length = timeline.get(i).length();
            boundary = length == null ? NO_DEADLINE : boundary + length.toNanos();
            ends[i] = boundary;
        }
        this.phaseEnds = ends;
        this.plannedEnds = ends.clone();
    }

    /**
     * Where an instant planned as {@code planned} (run start + its offset) falls now: as far earlier as the phase
     * holding it was moved up by phases before it that ended on their conditions. A disruption planned in a later
     * phase starts at its time within that phase, wherever the phase now begins.
     */
    long moved(long planned) {
        long[] ends = phaseEnds;
        for (int i = 0; i < plannedEnds.length; i++) {
            if (planned < plannedEnds[i]) {
                long plannedStart = i == 0 ? startNanos : plannedEnds[i - 1];
                long start = i == 0 ? startNanos : ends[i - 1];
                return planned - (plannedStart - start);
            }
        }
        return planned;
    }

    /** Phase {@code index} ends at {@code at}, earlier than planned; the later phases keep their lengths. */
    void endPhaseAt(int index, long at) {
        long[] ends = phaseEnds.clone();
        long earlier = ends[index] - at;
        for (int i = index; i < ends.length; i++) {
            if (ends[i] != NO_DEADLINE) {
                ends[i] -= earlier;
            }
        }
        phaseEnds = ends;
    }

    long start() {
        return startNanos;
    }

    long everyNanos() {
        return everyNanos;
    }

    /** When phase {@code index} ends ({@link #NO_DEADLINE} for none). */
    long phaseEnd(int index) {
        return phaseEnds[index];
    }

    /** The run's end by the clock: the last phase's end. */
    long end() {
        return phaseEnds[phaseEnds.length - 1];
    }

    /** The first regular tick after {@code now}. */
    long nextTick(long now) {
        return startNanos + ((now - startNanos) / everyNanos + 1) * everyNanos;
    }

    /** The first interval close after {@code after}: the next regular tick or phase boundary. */
    long nextClose(long after) {
        long close = nextTick(after);
        for (long boundary : phaseEnds) {
            if (boundary > after && boundary < close) {
                close = boundary;
            }
        }
        return close;
    }

    /** Seconds from the run's start to {@code nanoTime}. */
    double seconds(long nanoTime) {
        return (nanoTime - startNanos) / 1e9;
    }
}

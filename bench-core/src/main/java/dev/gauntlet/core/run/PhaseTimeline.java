package dev.gauntlet.core.run;

import dev.gauntlet.core.result.Interval;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The run's phases as they pass, on the calling thread: it closes intervals at the clock's ticks and phase
 * boundaries, ends a phase when its {@link Condition} holds (the clock moves the later phases up), and retires each
 * role where the first phase that leaves it out begins.
 */
final class PhaseTimeline {

    private final List<PhasePlan> timeline;
    private final IntervalClock clock;
    private final List<? extends RoleRun<?>> roles;
    private final RunStop stop;
    /** How often the schedule's lag is sampled in the measured phases. */
    static final long LAG_SAMPLE_MILLIS = 20;
    private static final long LAG_SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(LAG_SAMPLE_MILLIS);
    private long mostLagNanos;
    /** Whether any role runs on a schedule (the lag is sampled only then). */
    private final boolean openLoop;
    PhaseTimeline(List<PhasePlan> timeline, IntervalClock clock, List<? extends RoleRun<?>> roles, RunStop stop) {
        this.timeline = timeline;
        this.clock = clock;
        this.roles = roles;
        this.stop = stop;
        this.openLoop = roles.stream().anyMatch(r -> r.role.openLoop());
    }

    /**
     * The calling thread closes intervals at the clock's ticks and phase boundaries; returns when the run should end:
     * deadline reached, every client done, or a stop was requested (the final interval is closed after operations in
     * flight drain).
     */
    void closeIntervalsUntilTheEnd(IntervalAccounts accounts) throws InterruptedException {
        timeline.stream().filter(p -> p.until() != null).forEach(p -> p.until().runStarts(this::scheduleLagNanos));
        long nextAsk = clock.start();
        long nextLagSample = clock.start();
        while (stop.goesOn()) {
            long now = System.nanoTime();
            if (now >= clock.end()) {
                return;
            }
            int phase = accounts.phaseIndex;
            if (openLoop && now >= nextLagSample) {
                nextLagSample = now + LAG_SAMPLE_NANOS;
                if (timeline.get(phase).measured()) {
                    mostLagNanos = Math.max(mostLagNanos, scheduleLagNanos());
                }
            }
            Condition until = timeline.get(phase).until();
            if (until != null && now >= nextAsk) {
                nextAsk = now + TimeUnit.MILLISECONDS.toNanos(Condition.POLL_MILLIS);
                long phaseStart = phase == 0 ? clock.start() : clock.phaseEnd(phase - 1);
                if (holds(until, java.time.Duration.ofNanos(now - phaseStart))) {
                    clock.endPhaseAt(phase, now);
                    scheduleRetirements();
                    if (phase == timeline.size() - 1) {
                        return; // the final interval is closed after operations in flight drain
                    }
                }
            }
            long next = until == null ? accounts.nextClose() : Math.min(accounts.nextClose(), nextAsk);
            if (openLoop) {
                next = Math.min(next, nextLagSample);
            }
            if (now < next) {
                stop.await(Math.max(1, TimeUnit.NANOSECONDS.toMillis(next - now)));
                continue;
            }
            accounts.tick(now);
            tellConditions(accounts.takeClosed());
        }
    }

    /** Each phase's condition hears the intervals closed since it last heard. */
    private void tellConditions(List<Interval> closed) {
        for (Interval interval : closed) {
            for (PhasePlan p : timeline) {
                if (p.until() != null) {
                    try {
                        p.until().observe(interval);
                    } catch (RuntimeException e) {
                        // as with holds: a condition that fails does not end its phase; the length bounds it
                    }
                }
            }
        }
    }

    /**
     * A role stops issuing where the first phase that leaves it out begins, by the clock (workers compare it with
     * their own clock reads, so the boundary holds however late this thread gets to close the interval); again after
     * a phase ends early on its condition.
     */
    void scheduleRetirements() {
        for (RoleRun<?> r : roles) {
            for (int i = 0; i < timeline.size(); i++) {
                if (!timeline.get(i).runs(r.role.name())) {
                    r.retireAt(i == 0 ? clock.start() : clock.phaseEnd(i - 1));
                    break;
                }
            }
        }
    }

    /**
     * The most the open-loop schedule was behind in the measured phases, sampled every {@value #LAG_SAMPLE_MILLIS} ms
     * ({@link #scheduleLagNanos}); -1 for a closed-loop run, which has no schedule.
     */
    long mostScheduleLagNanos() {
        return openLoop ? mostLagNanos : -1;
    }

    /**
     * How late the oldest due operation no client has taken up is, across the open-loop roles still issuing: the next
     * slot of each role's schedule that no client has taken, against now; 0 when every one is in the future.
     */
    private long scheduleLagNanos() {
        long now = System.nanoTime();
        long lag = 0;
        for (RoleRun<?> r : roles) {
            RateSchedule s = r.schedule;
            if (s != null && now < r.retiredAt()) {
                lag = Math.max(lag, now - s.intendedStart(s.taken()));
            }
        }
        return lag;
    }

    /** Whether a phase's condition holds; one that throws does not. */
    private static boolean holds(Condition until, java.time.Duration inPhase) {
        try {
            return until.holds(inPhase);
        } catch (Exception e) {
            return false;
        }
    }
}

package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.Timing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A run's accounts, closed interval by interval (model: OpenMessaging Benchmark's {@code WorkerStats}, with its
 * period and cumulative views): each interval's figures from the recorders' snapshots, each phase's own, and the
 * measured phases' cumulative histograms and counters that become the result. The caller closes intervals on one
 * thread, at the {@link IntervalClock}'s ticks and exactly at every phase boundary.
 */
final class IntervalAccounts {
    private final RunStats stats;
    private final Gauges gauges;
    private final PhaseProbes probes;
    private final List<RoleCount> roles;
    private final RunListener listener;
    private final IntervalLog intervalLog;
    private final IntervalClock clock;
    /** Told when a listener throws: the run stops with its message. */
    private final Consumer<String> fail;
    final long startMillis;
    final List<PhasePlan> timeline;
    final List<Interval> intervals = new ArrayList<>();
    final List<Phase> phases = new ArrayList<>();
    final Map<String, Totals> totals = new LinkedHashMap<>();
    final Map<String, Long> phaseCounts = new LinkedHashMap<>();
    /** Each failure class's run total at the last interval's end. */
    final Map<String, Long> failuresSeen = new java.util.HashMap<>();
    /** Measured-phase distribution of each observation, and last/min/max of each gauge at interval ends. */
    final Map<String, Histogram> observationTotals = new java.util.TreeMap<>();
    final Map<String, GaugeSummary> gaugeTotals = new java.util.TreeMap<>();
    /** The current phase's figures per operation, from its intervals. */
    Map<String, PhaseFigures> phaseFigures = new LinkedHashMap<>();
    long lastTick;
    long nextRegular;
    int phaseIndex;
    long phaseStart;
    long measuredNanos;
    boolean measuredYet;
    String phase;

    /** One operation's measured-phase totals, and the cumulative counters last seen (for differences). */
    final class Totals {
        final Histogram latency = LatencyRecorder.newHistogram();
        final Histogram service = LatencyRecorder.newHistogram();
        final Histogram poolWait = LatencyRecorder.newHistogram();
        final Histogram failed = LatencyRecorder.newHistogram();
        final Histogram unissued = LatencyRecorder.newHistogram();
        final Map<String, Long> counters = new java.util.TreeMap<>();
        long errors;
        long retries;
        long reconnects;
        long lastErrors;
        long lastRetries;
        long lastReconnects;
        long lastClamped;
        long clamped;
        Map<String, Long> lastCounters = Map.of();
    }

    /** One operation over the current phase. */
    final class PhaseFigures {
        final Histogram latency = LatencyRecorder.newHistogram();
        final Map<String, Long> counters = new java.util.TreeMap<>();
        long errors;
        long retries;

        IntervalOperation over(double seconds) {
            return IntervalOperation.of(latency, seconds, errors, retries, counters);
        }
    }

    /** Probe readings when the current phase began. */
    Map<String, Long> phaseProbes;

    /** @param probesAtStart the phase probes' readings at the run's start */
    IntervalAccounts(RunStats stats, Gauges gauges, PhaseProbes probes, Map<String, Long> probesAtStart,
                     List<RoleCount> roles, RunListener listener, IntervalLog intervalLog, IntervalClock clock,
                     long startMillis, List<PhasePlan> timeline, Consumer<String> fail) {
        this.stats = stats;
        this.gauges = gauges;
        this.probes = probes;
        this.roles = roles;
        this.listener = listener;
        this.intervalLog = intervalLog;
        this.clock = clock;
        this.fail = fail;
        this.phaseProbes = probesAtStart;
        this.startMillis = startMillis;
        this.timeline = timeline;
        this.lastTick = clock.start();
        this.nextRegular = clock.start() + clock.everyNanos();
        this.phase = timeline.get(0).name();
        this.phaseStart = clock.start();
        this.measuredYet = timeline.get(0).measured();
        tell(() -> listener.onPhaseStart(phase, 0));
    }

    boolean phaseMeasured() {
        return timeline.get(phaseIndex).measured();
    }

    /** When the next interval closes: the next regular tick, the current phase's end or the run's end. */
    long nextClose() {
        return Math.min(nextRegular, Math.min(clock.end(), clock.phaseEnd(phaseIndex)));
    }

    /** Closes the interval ending {@code now}, and the phase too at its boundary. */
    void tick(long now) {
        if (now >= nextRegular) {
            nextRegular = clock.nextTick(now);
        }
        closeInterval(now);
        while (phaseIndex < timeline.size() - 1 && now >= clock.phaseEnd(phaseIndex)) {
            nextPhase(now);
        }
    }

    /** Ends the current phase at {@code now} and begins the next one. */
    void nextPhase(long now) {
        Phase done = endPhase(now);
        phaseIndex++;
        PhasePlan next = timeline.get(phaseIndex);
        String previous = phase;
        phase = next.name();
        phaseStart = now;
        if (intervalLog != null) {
            intervalLog.comment(Phase.WARMUP.equals(previous)
                    ? String.format(java.util.Locale.ROOT,
                            "warm-up ended at %.3f s; the intervals after this line are measured", clock.seconds(now))
                    : String.format(java.util.Locale.ROOT, "phase %s began at %.3f s", phase, clock.seconds(now)));
        }
        if (next.measured() && !measuredYet) {
            // The first measured phase: errors count from here, like everything else in the totals.
            measuredYet = true;
            stats.startMeasuring();
        }
        phaseCounts.clear();
        tell(() -> listener.onPhaseEnd(done));
        tell(() -> listener.onPhaseStart(next.name(), clock.seconds(now)));
    }

    /** The current phase as the result keeps it, ending at {@code end}; its figures start over. */
    Phase endPhase(long end) {
        double length = (end - phaseStart) / 1e9;
        if (phaseMeasured()) {
            measuredNanos += end - phaseStart;
        }
        Map<String, IntervalOperation> figures = new LinkedHashMap<>();
        phaseFigures.forEach((op, f) -> figures.put(op, f.over(length)));
        phaseFigures = new LinkedHashMap<>();
        Phase p = new Phase(phase, clock.seconds(phaseStart), clock.seconds(end), probeRise(), phaseMeasured(), figures);
        phases.add(p);
        return p;
    }

    /**
     * The last interval: it ends when the run ended ({@code endAt}) but also holds the operations that were in
     * flight then and finished during the drain, and the unissued ones.
     */
    void close(long endAt) {
        long end = Math.max(endAt, lastTick);
        closeInterval(end);
        Phase last = endPhase(end);
        tell(() -> listener.onPhaseEnd(last));
    }

    /** How much each probe rose since the current phase began; the readings now start the next phase. */
    Map<String, Long> probeRise() {
        Map<String, Long> now = probes.read();
        Map<String, Long> rise = new LinkedHashMap<>();
        now.forEach((name, value) -> {
            Long before = phaseProbes.get(name);
            if (before != null && value != null) {
                rise.put(name, value - before);
            }
        });
        phaseProbes = now;
        return rise;
    }

    /** A listener that throws stops the run with its message instead of killing the reporter silently. */
    void tell(Runnable notification) {
        try {
            notification.run();
        } catch (RuntimeException e) {
            fail.accept("a run listener failed: " + e);
        }
    }

    double measuredSeconds() {
        return measuredNanos / 1e9;
    }

    void closeInterval(long now) {
        double secs = (now - lastTick) / 1e9;
        long fromMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(lastTick - clock.start());
        long toMillis = startMillis + TimeUnit.NANOSECONDS.toMillis(now - clock.start());
        boolean measuring = phaseMeasured();
        Map<String, IntervalOperation> ops = new LinkedHashMap<>();
        long intervalErrors = 0;
        long intervalRetries = 0;
        // Everything cumulative is read back to back first, so an operation finishing meanwhile falls on the same
        // side of the interval's end in its histograms, its counters and its role's issued count.
        List<OperationStats> ordered = stats.ordered();
        Map<OperationStats, OperationStats.Snapshot> snaps = new java.util.IdentityHashMap<>();
        Map<OperationStats, Map<String, Long>> counterValues = new java.util.IdentityHashMap<>();
        for (OperationStats s : ordered) {
            snaps.put(s, s.takeInterval());
            counterValues.put(s, s.counterValues());
        }
        // A role's issued operations: its operations' committed and failed counts in these same snapshots when
        // no operation is shared between roles; otherwise the roles' own counters, read just after the snapshots
        // (an operation ending in between is counted in this interval here and in the next in its histogram).
        boolean exact = stats.operationsOwnedByRoles();
        Map<String, Long> issuedNow = new java.util.HashMap<>();
        if (exact) {
            snaps.forEach((s, snap) -> {
                String role = stats.roleOf(s.name());
                if (role != null) {
                    issuedNow.merge(role, snap.latency().getTotalCount() + snap.failed().getTotalCount(), Long::sum);
                }
            });
        }
        for (RoleCount r : roles) {
            long issued = r.issued.sum();
            long inInterval = exact ? issuedNow.getOrDefault(r.name, 0L) : issued - r.issuedBefore;
            if (measuring) {
                r.issuedMeasured += inInterval;
            }
            r.issuedBefore = issued;
        }
        for (OperationStats s : ordered) {
            Totals t = totals.computeIfAbsent(s.name(), n -> new Totals());
            OperationStats.Snapshot snap = snaps.get(s);
            long errorsNow = s.errors();
            long retriesNow = s.retries();
            long reconnectsNow = s.reconnects();
            long clampedNow = s.clamped();
            long dErrors = errorsNow - t.lastErrors;
            long dRetries = retriesNow - t.lastRetries;
            long dReconnects = reconnectsNow - t.lastReconnects;
            long dClamped = clampedNow - t.lastClamped;
            t.lastErrors = errorsNow;
            t.lastRetries = retriesNow;
            t.lastReconnects = reconnectsNow;
            t.lastClamped = clampedNow;
            intervalErrors += dErrors;
            intervalRetries += dRetries;
            if (intervalLog != null) {
                intervalLog.write(s.name(), snap.latency(), fromMillis, toMillis);
                intervalLog.write(s.name() + ".service", snap.service(), fromMillis, toMillis);
                intervalLog.write(s.name() + ".poolWait", snap.poolWait(), fromMillis, toMillis);
                intervalLog.write(s.name() + ".failed", snap.failed(), fromMillis, toMillis);
                intervalLog.write(s.name() + ".unissued", snap.unissued(), fromMillis, toMillis);
            }
            Map<String, Long> own = counterValues.get(s);
            Map<String, Long> intervalCounters = new java.util.TreeMap<>();
            Map<String, Long> previous = t.lastCounters;
            own.forEach((k, v) -> {
                long delta = v - previous.getOrDefault(k, 0L);
                if (delta != 0) {
                    intervalCounters.put(k, delta);
                }
            });
            if (measuring) {
                intervalCounters.forEach((k, v) -> t.counters.merge(k, v, Long::sum));
                t.latency.add(snap.latency());
                t.service.add(snap.service());
                t.poolWait.add(snap.poolWait());
                t.failed.add(snap.failed());
                t.unissued.add(snap.unissued());
                t.errors += dErrors;
                t.retries += dRetries;
                t.reconnects += dReconnects;
                t.clamped += dClamped;
            }
            t.lastCounters = own;
            long count = snap.latency().getTotalCount();
            phaseCounts.merge(s.name(), count, Long::sum);
            PhaseFigures f = phaseFigures.computeIfAbsent(s.name(), n -> new PhaseFigures());
            f.latency.add(snap.latency());
            f.errors += dErrors;
            f.retries += dRetries;
            intervalCounters.forEach((k, v) -> f.counters.merge(k, v, Long::sum));
            ops.put(s.name(), IntervalOperation.of(snap.latency(), secs, dErrors, dRetries, intervalCounters));
        }
        Map<String, Timing> observed = new java.util.TreeMap<>();
        for (Map.Entry<String, LatencyRecorder> o : stats.observations().entrySet()) {
            Histogram h = o.getValue().takeInterval();
            if (intervalLog != null) {
                intervalLog.write("obs." + o.getKey(), h, fromMillis, toMillis);
            }
            Timing timing = Timing.of(h);
            if (timing != null) {
                observed.put(o.getKey(), timing);
            }
            if (measuring) {
                observationTotals.computeIfAbsent(o.getKey(), n -> LatencyRecorder.newHistogram()).add(h);
            }
        }
        // Rates are read here, at every close (phase boundaries and the end too): each interval its own counts.
        gauges.readRates();
        Map<String, Long> gaugeValues = gauges.values();
        if (measuring) {
            gaugeValues.forEach((name, v) -> gaugeTotals.merge(name, new GaugeSummary(v, v, v, gauges.info(name)),
                    (old, fresh) -> old.and(v)));
        }
        if (intervalLog != null) {
            intervalLog.flush();
        }
        Map<String, Long> failed = new java.util.TreeMap<>();
        stats.failuresByClass().forEach((name, total) -> {
            long delta = total - failuresSeen.getOrDefault(name, 0L);
            failuresSeen.put(name, total);
            if (delta > 0) {
                failed.put(name, delta);
            }
        });
        Interval interval = new Interval(clock.seconds(now), secs, phase, ops, intervalErrors, intervalRetries, observed,
                gaugeValues, failed);
        intervals.add(interval);
        lastTick = now;
        double phaseSeconds = (now - phaseStart) / 1e9;
        Map<String, Long> counts = Map.copyOf(phaseCounts);
        tell(() -> listener.onInterval(interval, counts, phaseSeconds));
    }

    /** The measured phases' observed latencies by name, each as a timing (one with no samples left out). */
    Map<String, Timing> observations() {
        Map<String, Timing> observed = new LinkedHashMap<>();
        observationTotals.forEach((name, h) -> observed.put(name, Timing.of(h)));
        observed.values().removeIf(java.util.Objects::isNull);
        return observed;
    }

    List<OperationResult> totals() {
        double measured = measuredSeconds();
        List<OperationResult> list = new ArrayList<>();
        for (OperationStats s : stats.ordered()) {
            Totals t = totals.get(s.name());
            long count = t.latency.getTotalCount();
            list.add(new OperationResult(s.name(), count, t.errors, t.retries, measured > 0 ? count / measured : 0,
                    LatencySummary.of(t.latency), HistogramCodec.encode(t.latency), Timing.of(t.service),
                    Timing.of(t.poolWait), Timing.of(t.failed), t.unissued.getTotalCount(), Timing.of(t.unissued),
                    t.reconnects, t.clamped, t.counters));
        }
        return list;
    }
}

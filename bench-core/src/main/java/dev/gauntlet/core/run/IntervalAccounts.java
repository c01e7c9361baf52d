package dev.gauntlet.core.run;

import dev.gauntlet.core.metrics.IntervalLog;
import dev.gauntlet.core.metrics.LatencyRecorder;
import dev.gauntlet.core.metrics.OperationStats;
import dev.gauntlet.core.result.GaugeSummary;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.InlineIntervals;
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
 * thread, at the {@link IntervalClock}'s ticks and exactly at every phase boundary. However long the run, what is
 * kept of the intervals is bounded: each is handed to the listener (which may write it to a file) and kept
 * downsampled ({@link InlineIntervals}); nothing else here grows with the run's length.
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
    /** The intervals the result keeps: every one of a short run, consecutive ones merged in a long one. */
    final InlineIntervals intervals;
    /** Intervals closed since the phases' conditions last heard (see {@link #takeClosed}). */
    private final List<Interval> unheard = new ArrayList<>();
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
        long planned = clock.end() == IntervalClock.NO_DEADLINE ? 0 : clock.end() - clock.start();
        this.intervals = new InlineIntervals(clock.everyNanos() / 1e9, planned / 1e9, name -> gauges.info(name).kind());
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
        intervals.endPhase();
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
        Map<String, Map<String, OperationStats>> ordered = stats.ordered();
        Map<OperationStats, OperationStats.Snapshot> snaps = new java.util.IdentityHashMap<>();
        Map<OperationStats, Map<String, Long>> counterValues = new java.util.IdentityHashMap<>();
        for (Map<String, OperationStats> byRole : ordered.values()) {
            for (OperationStats s : byRole.values()) {
                snaps.put(s, s.takeInterval());
                counterValues.put(s, s.counterValues());
            }
        }
        // A role's issued operations: the committed and failed counts of its own stats in these same snapshots.
        Map<String, Long> issuedNow = new java.util.HashMap<>();
        ordered.values().forEach(byRole -> byRole.forEach((role, s) -> issuedNow.merge(role,
                snaps.get(s).latency().getTotalCount() + snaps.get(s).failed().getTotalCount(), Long::sum)));
        if (measuring) {
            roles.forEach(r -> r.issuedMeasured += issuedNow.getOrDefault(r.name, 0L));
        }
        for (Map.Entry<String, Map<String, OperationStats>> operation : ordered.entrySet()) {
            String name = operation.getKey();
            java.util.Collection<OperationStats> byRole = operation.getValue().values();
            Totals t = totals.computeIfAbsent(name, n -> new Totals());
            OperationStats.Snapshot snap = merged(byRole, snaps);
            long errorsNow = byRole.stream().mapToLong(OperationStats::errors).sum();
            long retriesNow = byRole.stream().mapToLong(OperationStats::retries).sum();
            long reconnectsNow = byRole.stream().mapToLong(OperationStats::reconnects).sum();
            long clampedNow = byRole.stream().mapToLong(OperationStats::clamped).sum();
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
                intervalLog.write(name, snap.latency(), fromMillis, toMillis);
                intervalLog.write(name + ".service", snap.service(), fromMillis, toMillis);
                intervalLog.write(name + ".poolWait", snap.poolWait(), fromMillis, toMillis);
                intervalLog.write(name + ".failed", snap.failed(), fromMillis, toMillis);
                intervalLog.write(name + ".unissued", snap.unissued(), fromMillis, toMillis);
            }
            Map<String, Long> own = new java.util.TreeMap<>();
            byRole.forEach(s -> counterValues.get(s).forEach((k, v) -> own.merge(k, v, Long::sum)));
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
            phaseCounts.merge(name, count, Long::sum);
            PhaseFigures f = phaseFigures.computeIfAbsent(name, n -> new PhaseFigures());
            f.latency.add(snap.latency());
            f.errors += dErrors;
            f.retries += dRetries;
            intervalCounters.forEach((k, v) -> f.counters.merge(k, v, Long::sum));
            ops.put(name, IntervalOperation.of(snap.latency(), secs, dErrors, dRetries, intervalCounters));
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
        unheard.add(interval);
        lastTick = now;
        double phaseSeconds = (now - phaseStart) / 1e9;
        Map<String, Long> counts = Map.copyOf(phaseCounts);
        tell(() -> listener.onInterval(interval, counts, phaseSeconds));
    }

    /** The intervals closed since the last call, for the phases' conditions to hear. */
    List<Interval> takeClosed() {
        List<Interval> closed = List.copyOf(unheard);
        unheard.clear();
        return closed;
    }

    /** The measured phases' observed latencies by name, each as a timing (one with no samples left out). */
    Map<String, Timing> observations() {
        Map<String, Timing> observed = new LinkedHashMap<>();
        observationTotals.forEach((name, h) -> observed.put(name, Timing.of(h)));
        observed.values().removeIf(java.util.Objects::isNull);
        return observed;
    }

    /** One operation's snapshot over its roles' stats (they are the caller's to change: each was copied or made). */
    private static OperationStats.Snapshot merged(java.util.Collection<OperationStats> byRole,
                                                  Map<OperationStats, OperationStats.Snapshot> snaps) {
        OperationStats.Snapshot all = null;
        for (OperationStats s : byRole) {
            OperationStats.Snapshot one = snaps.get(s);
            if (all == null) {
                all = one;
            } else {
                all.latency().add(one.latency());
                all.service().add(one.service());
                all.poolWait().add(one.poolWait());
                all.failed().add(one.failed());
                all.unissued().add(one.unissued());
            }
        }
        return all != null ? all : new OperationStats.Snapshot(LatencyRecorder.newHistogram(),
                LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram(),
                LatencyRecorder.newHistogram());
    }

    List<OperationResult> totals() {
        double measured = measuredSeconds();
        List<OperationResult> list = new ArrayList<>();
        for (String name : stats.ordered().keySet()) {
            Totals t = totals.computeIfAbsent(name, n -> new Totals());
            long count = t.latency.getTotalCount();
            list.add(new OperationResult(name, count, t.errors, t.retries, measured > 0 ? count / measured : 0,
                    LatencySummary.of(t.latency), HistogramCodec.encode(t.latency), Timing.of(t.service),
                    Timing.of(t.poolWait), Timing.of(t.failed), t.unissued.getTotalCount(), Timing.of(t.unissued),
                    t.reconnects, t.clamped, t.counters));
        }
        return list;
    }
}

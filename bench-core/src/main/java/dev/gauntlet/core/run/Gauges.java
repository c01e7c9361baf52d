package dev.gauntlet.core.run;

import dev.gauntlet.core.result.GaugeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A run's gauges: the levels and rates its {@link GaugeProbe}s read and the values operations set
 * ({@link Attempt#gauge}), each with the contract its probe or operation declared. Level probes are read on a thread
 * of their own shortly before each interval closes (a tenth of the interval, at most 250 ms, ahead), so each
 * interval shows figures from its own end; rate probes are read by the interval accounts at every close
 * ({@link #readRates}), each interval its own counts. A failed read removes the probe's gauges: a gap, not a stale
 * value.
 */
final class Gauges {

    /** A gauge an operation sets: a level of its process's own share (consumer lag over its partitions). */
    static final GaugeInfo OPERATION_GAUGE = GaugeInfo.level(GaugeInfo.Merge.SUM);
    /** An age an operation sets (the oldest message's): the largest of the processes' is meant. */
    static final GaugeInfo OPERATION_AGE = GaugeInfo.level(GaugeInfo.Merge.MAX);

    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();
    private final Map<String, GaugeInfo> info = new ConcurrentHashMap<>();
    private final List<GaugeProbe> levelProbes;
    private final List<GaugeProbe> rateProbes;
    /** The gauges each rate probe last returned (removed when a read fails); the accounts' thread only. */
    private final Map<GaugeProbe, Set<String>> rateNames = new HashMap<>();
    private Thread sampler;

    Gauges(List<GaugeProbe> probes) {
        this.levelProbes = probes.stream().filter(p -> p.kind() != GaugeInfo.Kind.RATE).toList();
        this.rateProbes = probes.stream().filter(p -> p.kind() == GaugeInfo.Kind.RATE).toList();
    }

    /** A run's gauges, read by the gauge probes among its {@code probes}. */
    static Gauges of(List<? extends Probe> probes) {
        List<GaugeProbe> gaugeProbes = new ArrayList<>();
        for (Probe p : probes) {
            if (p instanceof GaugeProbe gauge) {
                gaugeProbes.add(gauge);
            }
        }
        return new Gauges(gaugeProbes);
    }

    /** The gauge {@code name}, created with {@code declared} as its contract the first time it is set. */
    AtomicLong gauge(String name, GaugeInfo declared) {
        info.putIfAbsent(name, declared);
        return values.computeIfAbsent(name, n -> new AtomicLong());
    }

    /** Every gauge's value now, by name. */
    Map<String, Long> values() {
        Map<String, Long> now = new TreeMap<>();
        values.forEach((name, value) -> now.put(name, value.get()));
        return now;
    }

    GaugeInfo info(String name) {
        return info.getOrDefault(name, GaugeInfo.UNDECLARED);
    }

    /**
     * Starts counting rates, and reads the level probes now and then before each interval close of {@code clock}
     * until {@code stopping} says so.
     */
    void start(IntervalClock clock, BooleanSupplier stopping) {
        levelProbes.forEach(GaugeProbe::runStarts);
        rateProbes.forEach(GaugeProbe::runStarts);
        rateProbes.forEach(p -> sample(p, new HashSet<>())); // counting starts with the run
        if (levelProbes.isEmpty()) {
            return;
        }
        long lead = Math.min(clock.everyNanos() / 10, TimeUnit.MILLISECONDS.toNanos(250));
        sampler = new Thread(() -> {
            Map<GaugeProbe, Set<String>> lastNames = new HashMap<>();
            try {
                for (long close = clock.start(); !stopping.getAsBoolean(); close = clock.nextClose(close)) {
                    for (GaugeProbe p : levelProbes) {
                        sample(p, lastNames.computeIfAbsent(p, k -> new HashSet<>()));
                    }
                    long next = clock.nextClose(close) - lead;
                    for (long left = next - System.nanoTime(); left > 0 && !stopping.getAsBoolean();
                            left = next - System.nanoTime()) {
                        TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gauntlet-gauges");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Reads the rate probes: called at every interval close, phase boundaries and the end included. */
    void readRates() {
        rateProbes.forEach(p -> sample(p, rateNames.computeIfAbsent(p, k -> new HashSet<>())));
    }

    /** Stops the level sampler. */
    void stop() throws InterruptedException {
        if (sampler != null) {
            sampler.interrupt();
            sampler.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    /** Reads one probe into the gauges; a failed read removes its gauges (a gap, not a stale value). */
    private void sample(GaugeProbe p, Set<String> names) {
        try {
            Map<String, Long> read = p.sample();
            read.forEach((name, v) -> gauge(name, new GaugeInfo(p.kind(), p.merge(name))).set(v));
            names.addAll(read.keySet());
        } catch (Exception | LinkageError e) {
            names.forEach(values::remove);
        }
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.ErrorCount;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.core.result.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Builds RunResults for tests the way a run would: from nanosecond histograms, never from invented summaries. */
final class RunFixture {

    private String workload = "tpcc";
    private String variant = "baseline";
    private String startedAt = "2026-11-22T10:00:00Z";
    private String endedAt = "2026-11-22T10:01:10Z";
    private double measuredSeconds = 60.0;
    private int clients = 8;
    private Environment environment = new Environment("OpenJDK 17.0.15", "Linux 6.1.0 amd64", 2, 512L << 20,
            "bench-1", "PostgreSQL 17.6", "jdbc:postgresql://localhost:5432/tpcc");
    private final Map<String, Object> parameters = new LinkedHashMap<>(Map.of("warehouses", 4, "pool", "direct"));
    private final List<OperationResult> operations = new ArrayList<>();
    private final Metrics metrics = new Metrics();
    private String runId = RunResult.newRunId();
    private final List<dev.gauntlet.core.result.RoleResult> roles = new ArrayList<>();
    private final Map<String, dev.gauntlet.core.result.Timing> observations = new LinkedHashMap<>();
    private final Map<String, dev.gauntlet.core.result.GaugeSummary> gauges = new LinkedHashMap<>();
    private final List<Interval> intervals = new ArrayList<>();
    private final List<Phase> phases = new ArrayList<>();
    private final List<ErrorCount> errors = new ArrayList<>();
    private final List<Check> checks = new ArrayList<>();
    private final List<DisruptionRecord> disruptions = new ArrayList<>();

    static Histogram histogram() {
        return new Histogram(TimeUnit.HOURS.toNanos(1), 3);
    }

    /** A histogram of the given latencies in milliseconds, each recorded {@code times} times. */
    static Histogram millis(int times, double... ms) {
        Histogram h = histogram();
        for (double v : ms) {
            h.recordValueWithCount(Math.round(v * 1_000_000), times);
        }
        return h;
    }

    static OperationResult operation(String name, Histogram h, double seconds, long errors, long retries,
                                     Timing serviceTime, Timing poolWait) {
        return new OperationResult(name, h.getTotalCount(), errors, retries,
                seconds > 0 ? h.getTotalCount() / seconds : 0, LatencySummary.of(h), HistogramCodec.encode(h),
                serviceTime, poolWait, null, 0, null, 0, 0, java.util.Map.of());
    }

    static IntervalOperation intervalOperation(Histogram h, double seconds, long errors) {
        LatencySummary l = LatencySummary.of(h);
        return new IntervalOperation(h.getTotalCount(), h.getTotalCount() / seconds, l.p50(), l.p95(), l.p99(),
                l.max(), errors, 0, HistogramCodec.encode(h));
    }

    RunFixture workload(String w) {
        workload = w;
        return this;
    }

    RunFixture variant(String v) {
        variant = v;
        return this;
    }

    RunFixture startedAt(String started, String ended) {
        startedAt = started;
        endedAt = ended;
        return this;
    }

    RunFixture measuredSeconds(double s) {
        measuredSeconds = s;
        return this;
    }

    RunFixture clients(int c) {
        clients = c;
        parameters.put("clients", c);
        return this;
    }

    RunFixture environment(Environment e) {
        environment = e;
        return this;
    }

    RunFixture parameter(String key, Object value) {
        parameters.put(key, value);
        return this;
    }

    /** An operation whose histogram holds {@code h}; its rate is over this run's measured seconds. */
    RunFixture operation(String name, Histogram h) {
        return operation(operation(name, h, measuredSeconds, 0, 0, null, null));
    }

    RunFixture operation(OperationResult op) {
        operations.add(op);
        return this;
    }

    /** A rate-like metric: higher is better, and it adds up across driver processes. */
    RunFixture metric(String name, double value) {
        return metric(name, value, MetricInfo.higher().addsUp());
    }

    RunFixture metric(String name, double value, MetricInfo info) {
        metrics.add(name, value, info);
        return this;
    }

    RunFixture observation(String name, Histogram h) {
        observations.put(name, dev.gauntlet.core.result.Timing.of(h));
        return this;
    }

    RunFixture gauge(String name, long last, long min, long max) {
        gauges.put(name, new dev.gauntlet.core.result.GaugeSummary(last, min, max));
        return this;
    }

    RunFixture gauge(String name, long last, long min, long max, dev.gauntlet.core.result.GaugeInfo info) {
        gauges.put(name, new dev.gauntlet.core.result.GaugeSummary(last, min, max, info));
        return this;
    }

    RunFixture role(dev.gauntlet.core.result.RoleResult role) {
        roles.add(role);
        return this;
    }

    RunFixture runId(String id) {
        runId = id;
        return this;
    }

    RunFixture interval(Interval i) {
        intervals.add(i);
        return this;
    }

    RunFixture phase(String name, double start, double end) {
        phases.add(new Phase(name, start, end));
        return this;
    }

    RunFixture phase(Phase phase) {
        phases.add(phase);
        return this;
    }

    RunFixture disruption(DisruptionRecord d) {
        disruptions.add(d);
        return this;
    }

    RunFixture error(String errorClass, String sqlState, long count, String example) {
        errors.add(new ErrorCount(errorClass, sqlState, count, example));
        return this;
    }

    RunFixture check(Check c) {
        checks.add(c);
        return this;
    }

    RunResult build() {
        return RunResult.builder()
                .runId(runId)
                .tool(new Tool("gauntlet", "0.1.0", "abc1234"))
                .workload(workload)
                .variant(variant)
                .command("gauntlet " + workload + " --url jdbc:postgresql://localhost:5432/tpcc --clients " + clients)
                .startedAt(startedAt)
                .endedAt(endedAt)
                .measuredSeconds(measuredSeconds)
                .clients(clients)
                .environment(environment)
                .parameters(parameters)
                .operations(operations)
                .metrics(metrics)
                .intervals(intervals)
                .phases(phases)
                .errors(errors)
                .checks(checks)
                .observations(observations)
                .gauges(gauges)
                .roles(roles)
                .disruptions(disruptions)
                .build();
    }

    /**
     * A run through faults, 90 s in 5 s intervals: phases baseline (0-30 s), fault (30-60 s) and recovery
     * (60-90 s); newOrder and payment; in the fault phase two intervals (10 s) with nothing committed and failures
     * by class (connection 7, timeout 2, retried 3); 3 of each interval's 30 New-Orders rolled back (not tpmC); a replication lag gauge; two disruptions: {@code kill-primary}
     * (30-32 s, recovered 12 s after its end) and one whose name and notes hold markup and a closing script tag
     * (70-80 s, not recovered). Per-phase figures come from the phase's summed interval histograms, as a run's do.
     */
    static RunResult throughFaults() {
        RunFixture run = new RunFixture().variant("failover").clients(4).measuredSeconds(60)
                .operation("newOrder", millis(300, 2.0, 4.0, 9.0)).operation("payment", millis(400, 1.0, 3.0))
                .metric("tpmC", 300.0).metric("unavailableSeconds", 10.0, MetricInfo.lower());
        String[][] phases = {{"baseline", "0", "30"}, {"fault", "30", "60"}, {"recovery", "60", "90"}};
        for (String[] p : phases) {
            Histogram newOrder = histogram();
            Histogram payment = histogram();
            long errors = 0;
            long rolledBackInPhase = 0;
            double start = Double.parseDouble(p[1]);
            double end = Double.parseDouble(p[2]);
            for (double t = start + 5; t <= end; t += 5) {
                boolean down = t == 35 || t == 40;
                Histogram no = down ? histogram() : millis(10, 2.0 + t / 10, 5.0 + t / 10, 20.0 + t / 10);
                Histogram pay = down ? histogram() : millis(12, 1.0, 2.5);
                newOrder.add(no);
                payment.add(pay);
                Map<String, Long> failures = new LinkedHashMap<>();
                if (t == 35) {
                    failures.put("connection", 4L);
                    failures.put("timeout", 2L);
                } else if (t == 40) {
                    failures.put("connection", 3L);
                    failures.put("retried", 3L);
                }
                long intervalErrors = down ? 9 : 0;
                errors += intervalErrors;
                Map<String, IntervalOperation> ops = new LinkedHashMap<>();
                // A tenth of the committed New-Orders rolled back by design (TPC-C's unused item): not tpmC.
                Map<String, Long> rolledBack = down ? Map.of() : Map.of("rolledBack", 3L);
                rolledBackInPhase += down ? 0 : 3;
                ops.put("newOrder", IntervalOperation.of(no, 5, intervalErrors, 0, rolledBack));
                ops.put("payment", IntervalOperation.of(pay, 5, 0, 0, Map.of()));
                run.interval(new Interval(t, 5, p[0], ops, intervalErrors, down ? 3 : 0, Map.of(),
                        Map.of("replicationLagBytes", (long) (t * 1_000_000)), failures));
            }
            Map<String, IntervalOperation> phaseOps = new LinkedHashMap<>();
            phaseOps.put("newOrder", IntervalOperation.of(newOrder, end - start, errors, 0,
                    Map.of("rolledBack", rolledBackInPhase)));
            phaseOps.put("payment", IntervalOperation.of(payment, end - start, 0, 0, Map.of()));
            run.phase(new Phase(p[0], start, end, Map.of(), true, phaseOps));
        }
        run.disruption(new DisruptionRecord("kill-primary", 30, 32.0, 30.1, 32.0, DisruptionRecord.DONE,
                List.of("pg_ctl stop -m immediate")).recovered(12.0));
        run.disruption(new DisruptionRecord("partition </script><b>x</b>", 70, 80.0, 70.0, 80.0, DisruptionRecord.DONE,
                List.of("iptables </script><script>alert(1)</script>")).notRecovered(null));
        return run.build();
    }

    /**
     * A run under adversity as crowded as the real ones on a chart: 240 s in 2 s intervals through six phases, two of
     * them only 4 s long (restarts, network), and nine disruptions close together: three disk stalls of 10 s, 3 s
     * apart, the last two recovering at the same moment; a restart 3 s after them, another restart, a killed
     * backend and terminated sessions a second or two apart; a zone outage; and a partition that never started.
     * newOrder and payment commit nothing during a stall or the outage.
     */
    static RunResult underAdversity() {
        RunFixture run = new RunFixture().variant("adversity").clients(8).measuredSeconds(230)
                .operation("newOrder", millis(100, 2.0, 4.0, 9.0)).operation("payment", millis(100, 1.0, 3.0));
        Object[][] phases = {{"warmup", 0, 10, false}, {"baseline", 10, 60, true}, {"disk-stalls", 60, 105, true},
            {"restarts", 105, 109, true}, {"network", 109, 113, true}, {"zone-outage", 113, 240, true}};
        double[][] down = {{62, 72}, {75, 85}, {88, 98}, {140, 200}};
        for (Object[] p : phases) {
            String name = (String) p[0];
            int start = (Integer) p[1];
            int end = (Integer) p[2];
            Histogram newOrder = histogram();
            Histogram payment = histogram();
            for (int t = start + 2; t <= end; t += 2) {
                int at = t;
                boolean stalled = java.util.Arrays.stream(down).anyMatch(d -> at > d[0] && at <= d[1]);
                Histogram no = stalled ? histogram() : millis(20, 2.0 + t % 7, 6.0 + t % 5);
                Histogram pay = stalled ? histogram() : millis(24, 1.0, 2.5);
                newOrder.add(no);
                payment.add(pay);
                Map<String, IntervalOperation> ops = new LinkedHashMap<>();
                ops.put("newOrder", IntervalOperation.of(no, 2, 0, 0, Map.of()));
                ops.put("payment", IntervalOperation.of(pay, 2, 0, 0, Map.of()));
                run.interval(new Interval(t, 2, name, ops, 0, 0, Map.of(), Map.of(),
                        stalled ? Map.of("connection", 3L) : Map.of()));
            }
            Map<String, IntervalOperation> phaseOps = new LinkedHashMap<>();
            phaseOps.put("newOrder", IntervalOperation.of(newOrder, end - start, 0, 0, Map.of()));
            phaseOps.put("payment", IntervalOperation.of(payment, end - start, 0, 0, Map.of()));
            run.phase(new Phase(name, start, end, Map.of(), (Boolean) p[3], phaseOps));
        }
        run.disruption(done("disk-stall#1", 62, 72).recovered(8.0));
        run.disruption(done("disk-stall#2", 75, 85).recovered(15.0));
        run.disruption(done("disk-stall#3", 88, 98).recovered(2.0));
        run.disruption(done("restart-fast", 101, 101.5).recovered(5.0));
        run.disruption(done("restart-immediate", 104, 106).notRecovered(null));
        run.disruption(done("kill-backend", 107, 107.05).recovered(3.0));
        run.disruption(done("terminate-sessions", 108, 108.02).notRecovered(null));
        run.disruption(done("zone-outage", 140, 200).recovered(12.0));
        run.disruption(new DisruptionRecord("full-partition", 220, 230.0, null, null, DisruptionRecord.NOT_STARTED,
                List.of("the run ended first")));
        return run.build();
    }

    private static DisruptionRecord done(String name, double start, double end) {
        return new DisruptionRecord(name, start, end, start, end, DisruptionRecord.DONE, List.of());
    }
}

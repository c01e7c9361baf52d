package dev.gauntlet.core.report;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The dashboard's charts as data, one point per reporting interval over the whole run (warm-up included), drawn by
 * the page's script: throughput per operation, p90/p95/p99 latency per operation (and per observed latency such as
 * end to end), failures by class, and one chart per gauge family. A chart without a single value to draw is left
 * out. In every series a value is null where there is nothing to draw (latency of an interval in which the
 * operation never committed, a gauge not read); throughput is 0 in an interval in which the operation did not
 * commit, so an outage reads as a drop, not as a gap.
 */
final class DashboardCharts {

    /** The operation whose committed executions per minute are tpmC (TPC-C's New-Order). */
    static final String TPMC_OPERATION = "newOrder";
    /** Its counter of executions that rolled back by design (the 1% unused item): they are not tpmC. */
    static final String TPMC_EXCLUDED = "rolledBack";

    static final String THROUGHPUT = "throughput";
    static final String LATENCY = "latency";
    static final String FAILURES = "failures";
    static final String GAUGE_PREFIX = "gauge-";

    /** The left axis, and the right one (newOrder per minute beside ops/s). */
    static final String LEFT = "y";
    static final String RIGHT = "right";

    private static final int SIGNIFICANT_DIGITS = 6;

    private static final String SOLID = "solid";
    private static final String DASH = "dash";
    private static final String DOT = "dot";

    /**
     * One line: its label in the legend, its axis ({@link #LEFT} or {@link #RIGHT}), its colour as an index into
     * the page's palette (an operation keeps one colour in every chart), its line style (solid, dash or dot) and
     * one value per interval.
     */
    record Series(String label, String scale, int colour, String line, List<Double> values) {
    }

    /**
     * One chart: {@code id} names it in the page, values are shown with {@code decimals} decimals in the legend,
     * {@code rightUnit} is null when there is no right axis, and {@code logScale} offers a log scale.
     */
    record Chart(String id, String title, String unit, String rightUnit, int decimals, boolean logScale,
                 List<Series> series) {
    }

    private final RunResult run;
    private final List<Interval> intervals;

    private DashboardCharts(RunResult run) {
        this.run = run;
        this.intervals = timeOrdered(run);
    }

    /** The intervals in the order of their ends; the charts' x values are their {@code t}. */
    static List<Interval> timeOrdered(RunResult run) {
        return run.intervals().stream().sorted(Comparator.comparingDouble(Interval::t)).toList();
    }

    static List<Double> x(RunResult run) {
        return timeOrdered(run).stream().map(Interval::t).toList();
    }

    /** The charts that have something to draw, in display order; none for a run without intervals. */
    static List<Chart> of(RunResult run) {
        return new DashboardCharts(run).charts();
    }

    private List<Chart> charts() {
        List<Chart> charts = new ArrayList<>();
        List<String> ops = TimelineCharts.operationNames(run);
        keep(charts, new Chart(THROUGHPUT, "Throughput per operation", "ops/s",
                ops.contains(TPMC_OPERATION) ? TPMC_OPERATION + "/min" : null, 2, false, throughput(ops)));
        keep(charts, new Chart(LATENCY, "Latency p90 / p95 / p99 (from intended start)", "ms", null, 3, true,
                latency(ops)));
        keep(charts, new Chart(FAILURES, "Failures by class per interval", "failures", null, 0, false, failures()));
        TimelineCharts.gaugeFamilies(run).forEach((family, names) -> {
            boolean bytes = family.endsWith("Bytes");
            List<Series> series = new ArrayList<>();
            for (int k = 0; k < names.size(); k++) {
                String name = names.get(k);
                series.add(new Series(name, LEFT, k, SOLID, values(i -> {
                    Long v = i.gauges().get(name);
                    return v == null ? null : bytes ? v / (double) (1 << 20) : v.doubleValue();
                })));
            }
            keep(charts, new Chart(GAUGE_PREFIX + family, family + (bytes ? " (MiB)" : "") + " at each interval's end",
                    bytes ? "MiB" : family, null, bytes ? 3 : 0, false, series));
        });
        return charts;
    }

    private List<Series> throughput(List<String> ops) {
        List<Series> series = new ArrayList<>();
        for (int k = 0; k < ops.size(); k++) {
            String op = ops.get(k);
            series.add(new Series(op, LEFT, k, SOLID, values(i -> opsPerSecond(i, op))));
        }
        int tpmC = ops.indexOf(TPMC_OPERATION);
        if (tpmC >= 0) {
            series.add(new Series(TPMC_OPERATION + " per minute (tpmC)", RIGHT, tpmC, DASH,
                    values(i -> {
                        IntervalOperation o = i.operations().get(TPMC_OPERATION);
                        return o == null ? 0 : tpmC(o, i.seconds());
                    })));
        }
        return series;
    }

    /** New-Orders per minute over {@code seconds}, the ones rolled back by design left out, as tpmC counts. */
    static double tpmC(IntervalOperation newOrders, double seconds) {
        long orders = newOrders.count() - newOrders.counters().getOrDefault(TPMC_EXCLUDED, 0L);
        double perSecond = Figures.perSecond(newOrders.count(), seconds, newOrders.opsPerSecond());
        return newOrders.count() == 0 ? 0 : perSecond * 60 * orders / newOrders.count();
    }

    private static double opsPerSecond(Interval i, String op) {
        IntervalOperation o = i.operations().get(op);
        return o == null ? 0 : Figures.perSecond(o.count(), i.seconds(), o.opsPerSecond());
    }

    private List<Series> latency(List<String> ops) {
        List<Series> series = new ArrayList<>();
        for (int k = 0; k < ops.size(); k++) {
            String op = ops.get(k);
            addPercentiles(series, op, k, i -> {
                IntervalOperation o = i.operations().get(op);
                return o == null || o.count() == 0 ? null : TimelineCharts.percentiles(o);
            });
        }
        List<String> observed = TimelineCharts.observationNames(run);
        for (int k = 0; k < observed.size(); k++) {
            String name = observed.get(k);
            addPercentiles(series, name, ops.size() + k, i -> {
                Timing t = i.observations().get(name);
                return t == null || t.count() == 0 ? null : t.latencyMs();
            });
        }
        return series;
    }

    /** p90 dotted, p95 solid, p99 dashed, all in the colour of their operation. */
    private void addPercentiles(List<Series> series, String name, int colour,
                                Function<Interval, LatencySummary> latency) {
        addPercentile(series, name + " p90", colour, DOT, latency, LatencySummary::p90);
        addPercentile(series, name + " p95", colour, SOLID, latency, LatencySummary::p95);
        addPercentile(series, name + " p99", colour, DASH, latency, LatencySummary::p99);
    }

    private void addPercentile(List<Series> series, String label, int colour, String line,
                               Function<Interval, LatencySummary> latency, ToDoubleFunction<LatencySummary> figure) {
        series.add(new Series(label, LEFT, colour, line, values(i -> {
            LatencySummary l = latency.apply(i);
            return l == null ? null : figure.applyAsDouble(l);
        })));
    }

    private List<Series> failures() {
        Set<String> classes = new TreeSet<>();
        intervals.forEach(i -> classes.addAll(i.failures().keySet()));
        List<Series> series = new ArrayList<>();
        int k = 0;
        for (String failureClass : classes) {
            series.add(new Series(failureClass, LEFT, k++, SOLID,
                    values(i -> (double) i.failures(failureClass))));
        }
        return series;
    }

    /**
     * One value per interval, to {@value #SIGNIFICANT_DIGITS} significant digits (a long run's page stays small, and
     * a sub-microsecond latency keeps its figure); null, NaN and infinities are gaps.
     */
    private List<Double> values(Function<Interval, Double> value) {
        List<Double> values = new ArrayList<>(intervals.size());
        for (Interval i : intervals) {
            Double v = value.apply(i);
            values.add(v == null || !Double.isFinite(v) ? null
                    : new BigDecimal(v).round(new MathContext(SIGNIFICANT_DIGITS)).doubleValue());
        }
        return java.util.Collections.unmodifiableList(values);
    }

    /** Keeps a chart whose series have at least one value to draw, and within it only such series. */
    private static void keep(List<Chart> charts, Chart chart) {
        List<Series> drawn = chart.series().stream().filter(s -> s.values().stream().anyMatch(v -> v != null))
                .toList();
        if (!drawn.isEmpty()) {
            charts.add(new Chart(chart.id(), chart.title(), chart.unit(), chart.rightUnit(), chart.decimals(),
                    chart.logScale(), drawn));
        }
    }
}

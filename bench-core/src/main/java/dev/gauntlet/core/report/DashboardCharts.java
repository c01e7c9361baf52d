package dev.gauntlet.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import dev.gauntlet.core.result.Timing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleUnaryOperator;

/**
 * The dashboard's charts as data, one point per reporting interval over the whole run (warm-up included), drawn by
 * the page's script: throughput per operation, p90/p95/p99 latency per operation (and per observed latency such as
 * end to end), failures by class, and one chart per gauge family. A chart without a single value to draw is left
 * out. In every series a value is null where there is nothing to draw (latency of an interval in which the
 * operation never committed, a gauge not read); throughput is 0 in an interval in which the operation did not
 * commit, so an outage reads as a drop, not as a gap.
 *
 * <p>The intervals are read once, one at a time, from the run's {@link Timeline} (a 12-hour run's 43,200 come from
 * its timeline file): what is kept is one number per interval and series, never the intervals. The page downsamples
 * for display (see dashboard.js); the data here is every interval.
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
     * one value per interval (NaN where there is nothing to draw: null in the page's data).
     */
    record Series(String label, String scale, int colour, String line,
                  @JsonSerialize(using = GapsAsNull.class) double[] values) {

        /** Whether the series has a value to draw. */
        boolean drawn() {
            return Arrays.stream(values).anyMatch(Double::isFinite);
        }
    }

    /**
     * One chart: {@code id} names it in the page, values are shown with {@code decimals} decimals in the legend,
     * {@code rightUnit} is null when there is no right axis, and {@code logScale} offers a log scale.
     */
    record Chart(String id, String title, String unit, String rightUnit, int decimals, boolean logScale,
                 List<Series> series) {
    }

    /** The charts over {@code x}, each interval's end in seconds since the start, in order. */
    record Charts(@JsonSerialize(using = GapsAsNull.class) double[] x, List<Chart> charts) {

        /** How many points each series has: one per interval. */
        int points() {
            return x.length;
        }
    }

    private final RunResult run;
    private final Columns columns;
    private final Set<String> operations = new LinkedHashSet<>();
    private final Set<String> observed = new TreeSet<>();
    private final Set<String> failureClasses = new TreeSet<>();
    private final Set<String> gauges = new TreeSet<>();

    private DashboardCharts(RunResult run, long intervals) {
        this.run = run;
        this.columns = new Columns((int) Math.min(Math.max(intervals, 16), 1 << 30));
        run.operations().stream().map(OperationResult::name).forEach(operations::add);
        observed.addAll(run.observations().keySet());
        gauges.addAll(run.gauges().keySet());
    }

    /** The charts of the result's own intervals (every one of a short run, a long run's downsampled). */
    static List<Chart> of(RunResult run) {
        return of(run, Timeline.of(run.intervals())).charts();
    }

    /** The charts of every interval of {@code timeline}, read once; none for a run without intervals. */
    static Charts of(RunResult run, Timeline timeline) {
        DashboardCharts d = new DashboardCharts(run, timeline.size());
        timeline.forEach(d::add);
        return new Charts(d.x(), d.charts());
    }

    /** Each interval's figures, a row of the columns; the series' names as they first appear. */
    private void add(Interval i) {
        columns.next(i.t());
        new TreeSet<>(i.operations().keySet()).forEach(operations::add);
        i.operations().forEach((op, o) -> {
            columns.set("throughput " + op, Figures.perSecond(o.count(), i.seconds(), o.opsPerSecond()));
            if (TPMC_OPERATION.equals(op)) {
                columns.set("tpmC", tpmC(o, i.seconds()));
            }
            if (o.count() > 0) {
                setPercentiles("latency " + op, TimelineCharts.percentiles(o));
            }
        });
        i.observations().forEach((name, t) -> {
            observed.add(name);
            if (t.count() > 0) {
                setPercentiles("latency " + name, t.latencyMs());
            }
        });
        i.failures().forEach((failureClass, n) -> {
            failureClasses.add(failureClass);
            columns.set("failures " + failureClass, n);
        });
        i.gauges().forEach((name, v) -> {
            gauges.add(name);
            columns.set("gauge " + name, v);
        });
    }

    private void setPercentiles(String prefix, LatencySummary l) {
        columns.set(prefix + " p90", l.p90());
        columns.set(prefix + " p95", l.p95());
        columns.set(prefix + " p99", l.p99());
    }

    /** The intervals' ends, to the millisecond (as they are shown). */
    private double[] x() {
        double[] x = columns.x();
        for (int r = 0; r < x.length; r++) {
            x[r] = Math.round(x[r] * 1000) / 1000.0;
        }
        return x;
    }

    private List<Chart> charts() {
        List<Chart> charts = new ArrayList<>();
        List<String> ops = List.copyOf(operations);
        keep(charts, new Chart(THROUGHPUT, "Throughput per operation", "ops/s",
                ops.contains(TPMC_OPERATION) ? TPMC_OPERATION + "/min" : null, 2, false, throughput(ops)));
        keep(charts, new Chart(LATENCY, "Latency p90 / p95 / p99 (from intended start)", "ms", null, 3, true,
                latency(ops)));
        keep(charts, new Chart(FAILURES, "Failures by class per interval", "failures", null, 0, false, failures()));
        Map<String, List<String>> families = new TreeMap<>();
        gauges.forEach(n -> families.computeIfAbsent(n.split("-", 2)[0], f -> new ArrayList<>()).add(n));
        families.forEach((family, names) -> {
            boolean bytes = family.endsWith("Bytes");
            List<Series> series = new ArrayList<>();
            for (int k = 0; k < names.size(); k++) {
                String name = names.get(k);
                series.add(new Series(name, LEFT, k, SOLID, values("gauge " + name, Double.NaN,
                        bytes ? v -> v / (1 << 20) : v -> v)));
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
            series.add(new Series(op, LEFT, k, SOLID, values("throughput " + op, 0, v -> v)));
        }
        int tpmC = ops.indexOf(TPMC_OPERATION);
        if (tpmC >= 0) {
            series.add(new Series(TPMC_OPERATION + " per minute (tpmC)", RIGHT, tpmC, DASH, values("tpmC", 0, v -> v)));
        }
        return series;
    }

    /** New-Orders per minute over {@code seconds}, the ones rolled back by design left out, as tpmC counts. */
    static double tpmC(IntervalOperation newOrders, double seconds) {
        long orders = newOrders.count() - newOrders.counters().getOrDefault(TPMC_EXCLUDED, 0L);
        double perSecond = Figures.perSecond(newOrders.count(), seconds, newOrders.opsPerSecond());
        return newOrders.count() == 0 ? 0 : perSecond * 60 * orders / newOrders.count();
    }

    private List<Series> latency(List<String> ops) {
        List<Series> series = new ArrayList<>();
        for (int k = 0; k < ops.size(); k++) {
            addPercentiles(series, ops.get(k), k);
        }
        List<String> names = List.copyOf(observed);
        for (int k = 0; k < names.size(); k++) {
            addPercentiles(series, names.get(k), ops.size() + k);
        }
        return series;
    }

    /** p90 dotted, p95 solid, p99 dashed, all in the colour of their operation. */
    private void addPercentiles(List<Series> series, String name, int colour) {
        series.add(new Series(name + " p90", LEFT, colour, DOT, latencies(name + " p90")));
        series.add(new Series(name + " p95", LEFT, colour, SOLID, latencies(name + " p95")));
        series.add(new Series(name + " p99", LEFT, colour, DASH, latencies(name + " p99")));
    }

    /** A percentile's column: a gap where nothing committed. */
    private double[] latencies(String percentile) {
        return values("latency " + percentile, Double.NaN, v -> v);
    }

    private List<Series> failures() {
        List<Series> series = new ArrayList<>();
        int k = 0;
        for (String failureClass : failureClasses) {
            series.add(new Series(failureClass, LEFT, k++, SOLID, values("failures " + failureClass, 0, v -> v)));
        }
        return series;
    }

    /**
     * One value per interval of a column, to {@value #SIGNIFICANT_DIGITS} significant digits (a long run's page stays
     * small, and a sub-microsecond latency keeps its figure); an interval without one reads {@code absent}; NaN and
     * infinities are gaps.
     */
    private double[] values(String column, double absent, DoubleUnaryOperator scale) {
        double[] values = columns.take(column);
        for (int r = 0; r < values.length; r++) {
            double v = Double.isNaN(values[r]) ? absent : scale.applyAsDouble(values[r]);
            values[r] = Double.isFinite(v) ? significant(v) : Double.NaN;
        }
        return values;
    }

    /** {@code v} to {@value #SIGNIFICANT_DIGITS} significant digits. */
    static double significant(double v) {
        if (v == 0) {
            return 0;
        }
        int shift = SIGNIFICANT_DIGITS - 1 - (int) Math.floor(Math.log10(Math.abs(v)));
        if (shift >= 0) {
            double scale = Math.pow(10, shift);
            double rounded = Math.round(v * scale) / scale;
            return Double.isFinite(rounded) ? rounded : v;
        }
        double scale = Math.pow(10, -shift);
        return Math.round(v / scale) * scale;
    }

    /** Keeps a chart whose series have at least one value to draw, and within it only such series. */
    private static void keep(List<Chart> charts, Chart chart) {
        List<Series> drawn = chart.series().stream().filter(Series::drawn).toList();
        if (!drawn.isEmpty()) {
            charts.add(new Chart(chart.id(), chart.title(), chart.unit(), chart.rightUnit(), chart.decimals(),
                    chart.logScale(), drawn));
        }
    }

    /**
     * One number per interval and name, in arrays as long as the timeline says it is (longer if it holds more): a
     * name first seen at row r reads NaN (absent) before it. In the intervals' order by their ends (a merged result's
     * are sorted; a run's already are). Each column is taken once, as a series' values, and changed in place.
     */
    private static final class Columns {
        private double[] x;
        private final Map<String, double[]> values = new HashMap<>();
        private int rows;
        private boolean ordered = true;

        Columns(int expected) {
            x = new double[expected];
        }

        void next(double t) {
            if (rows == x.length) {
                x = Arrays.copyOf(x, rows * 2);
                values.replaceAll((name, column) -> grown(column, rows * 2));
            }
            ordered &= rows == 0 || t >= x[rows - 1];
            x[rows++] = t;
        }

        void set(String name, double value) {
            values.computeIfAbsent(name, n -> {
                double[] column = new double[x.length];
                Arrays.fill(column, Double.NaN);
                return column;
            })[rows - 1] = value;
        }

        private static double[] grown(double[] column, int length) {
            int from = column.length;
            double[] longer = Arrays.copyOf(column, length);
            Arrays.fill(longer, from, length, Double.NaN);
            return longer;
        }

        double[] x() {
            sortOnce();
            return Arrays.copyOf(x, rows);
        }

        /** A column, exactly one value a row (all NaN for a name never seen), no longer kept here. */
        double[] take(String name) {
            sortOnce();
            double[] column = values.remove(name);
            if (column == null) {
                column = new double[rows];
                Arrays.fill(column, Double.NaN);
            }
            return column.length == rows ? column : Arrays.copyOf(column, rows);
        }

        /** Rows in the order of their ends, when the intervals did not come so. */
        private void sortOnce() {
            if (ordered) {
                return;
            }
            Integer[] order = new Integer[rows];
            for (int r = 0; r < rows; r++) {
                order[r] = r;
            }
            double[] ends = x;
            Arrays.sort(order, (a, b) -> Double.compare(ends[a], ends[b]));
            x = permuted(x, order);
            values.replaceAll((name, column) -> permuted(column, order));
            ordered = true;
        }

        private double[] permuted(double[] column, Integer[] order) {
            double[] sorted = new double[column.length];
            Arrays.fill(sorted, Double.NaN);
            for (int r = 0; r < order.length; r++) {
                sorted[r] = column[order[r]];
            }
            return sorted;
        }
    }

    /** Numbers as JSON, a NaN as null (a gap in the page's charts). */
    static final class GapsAsNull extends StdSerializer<double[]> {

        public GapsAsNull() {
            super(double[].class);
        }

        @Override
        public void serialize(double[] values, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartArray(values, values.length);
            for (double v : values) {
                if (Double.isFinite(v)) {
                    out.writeNumber(v);
                } else {
                    out.writeNull();
                }
            }
            out.writeEndArray();
        }
    }
}

package dev.gauntlet.core.report;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.OperationResult;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.RunResult;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The run's time series as PNG charts: throughput per operation, and p95/p99 latency per operation, over the
 * reporting intervals, with each phase a shaded band and each disruption a red band from its start to its end.
 * Totals hide autovacuum stalls, checkpoints and fault windows; these charts are where they show.
 */
final class TimelineCharts {

    static {
        ChartFonts.missing(); // headless set, fonts probed, before anything of AWT loads here
        // ImageIO's disk cache registers a JVM shutdown hook on first use, which throws "Shutdown in progress" when
        // the report is written after Ctrl-C (the run writes what it measured while the JVM is going down).
        javax.imageio.ImageIO.setUseCache(false);
    }

    static final String THROUGHPUT = "throughput.png";
    static final String LATENCY = "latency.png";
    static final String GAUGE_PREFIX = "gauge-";

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 500;
    /** Height of one legend entry, and what the title and padding above and below the legend take. */
    private static final int LEGEND_ROW = 22;
    private static final int LEGEND_MARGIN = 120;
    /** Beyond this many points, markers turn a line into a smear. */
    private static final int MAX_POINTS_WITH_MARKERS = 40;

    private TimelineCharts() {
    }

    /**
     * PNG bytes by file name, in display order; empty when the run recorded no intervals, or when this machine has
     * no fonts to draw them with ({@link ChartFonts#missing()} says so then): charts are all drawn or none.
     */
    static Map<String, byte[]> render(RunResult run) {
        if (ChartFonts.missing().isPresent()) {
            return Map.of();
        }
        Map<String, byte[]> pngs = new LinkedHashMap<>();
        try {
            build(run).forEach((name, chart) -> pngs.put(name, png(name, chart)));
        } catch (RuntimeException | Error e) {
            // Failed past the probe (a font of its own, a native library, a bug): no chart, one line; never the run.
            ChartFonts.failed(e);
            return Map.of();
        }
        return pngs;
    }

    /** The file names {@link #render} would produce, without the cost of drawing them. */
    static Set<String> names(RunResult run) {
        return ChartFonts.missing().isPresent() ? Set.of() : build(run).keySet();
    }

    /** The charts that have at least one series, by file name. */
    private static Map<String, XYChart> build(RunResult run) {
        Map<String, XYChart> charts = new LinkedHashMap<>();
        if (run.intervals().isEmpty()) {
            return charts;
        }
        List<String> ops = operationNames(run);
        XYChart throughput = chart(run, "Throughput per operation", "ops/s", ops.size());
        XYChart latency = chart(run, "Latency per operation (from intended start)", "ms",
                2 * (ops.size() + observationNames(run).size()));
        Color[] palette = throughput.getStyler().getSeriesColors();
        for (int k = 0; k < ops.size(); k++) {
            String op = ops.get(k);
            // One colour per operation in both charts; p99 dashed beside its solid p95.
            Color colour = palette[k % palette.length];
            style(addSeries(throughput, op, run, op, o -> true,
                    (i, o) -> Figures.perSecond(o.count(), i.seconds(), o.opsPerSecond())), colour, SeriesLines.SOLID);
            style(addSeries(latency, op + " p95", run, op, o -> o.count() > 0, (i, o) -> percentiles(o).p95()),
                    colour, SeriesLines.SOLID);
            style(addSeries(latency, op + " p99", run, op, o -> o.count() > 0, (i, o) -> percentiles(o).p99()),
                    colour, SeriesLines.DASH_DASH);
        }
        List<String> observed = observationNames(run);
        for (int k = 0; k < observed.size(); k++) {
            String name = observed.get(k);
            Color colour = palette[(ops.size() + k) % palette.length];
            style(addObservation(latency, name + " p95", run, name, LatencySummary::p95), colour, SeriesLines.SOLID);
            style(addObservation(latency, name + " p99", run, name, LatencySummary::p99), colour, SeriesLines.DASH_DASH);
        }
        keepIfPlotted(charts, THROUGHPUT, throughput);
        keepIfPlotted(charts, LATENCY, latency);
        gaugeFamilies(run).forEach((family, names) -> {
            boolean bytes = family.endsWith("Bytes");
            XYChart chart = chart(run, family + " (" + (bytes ? "MiB" : "value at each interval's end") + ")",
                    bytes ? "MiB" : family, names.size());
            for (String name : names) {
                addGauge(chart, name, run, bytes ? 1.0 / (1 << 20) : 1.0);
            }
            keepIfPlotted(charts, gaugeChart(family), chart);
        });
        return charts;
    }

    /** The file of a gauge family's chart: {@code gauge-lagMessages.png}. */
    static String gaugeChart(String family) {
        return GAUGE_PREFIX + family + ".png";
    }

    /**
     * Gauges by family, the part of the name before the first {@code -}: {@code lagMessages-g1} and
     * {@code lagMessages-g2} share a chart, {@code deadTuples} has one of its own.
     */
    static Map<String, List<String>> gaugeFamilies(RunResult run) {
        Set<String> names = new TreeSet<>(run.gauges().keySet());
        run.intervals().forEach(i -> names.addAll(i.gauges().keySet()));
        Map<String, List<String>> families = new java.util.TreeMap<>();
        names.forEach(n -> families.computeIfAbsent(n.split("-", 2)[0], f -> new ArrayList<>()).add(n));
        return families;
    }

    /** A gauge's value at each interval's end (intervals without one, say while its probe failed, are gaps). */
    private static void addGauge(XYChart chart, String name, RunResult run, double scale) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (Interval interval : run.intervals()) {
            Long v = interval.gauges().get(name);
            if (v != null) {
                xs.add(interval.t());
                ys.add(v * scale);
            }
        }
        if (!xs.isEmpty()) {
            XYSeries s = chart.addSeries(name, xs, ys);
            if (xs.size() > MAX_POINTS_WITH_MARKERS) {
                s.setMarker(SeriesMarkers.NONE);
            }
        }
    }

    private static void keepIfPlotted(Map<String, XYChart> charts, String name, XYChart chart) {
        if (!chart.getSeriesMap().isEmpty()) {
            charts.put(name, chart);
        }
    }

    private interface PointValue {
        double of(Interval interval, IntervalOperation op);
    }

    /** Adds one operation's series; null when the operation has no point to plot. */
    private static XYSeries addSeries(XYChart chart, String series, RunResult run, String op,
                                      Predicate<IntervalOperation> plotted, PointValue value) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (Interval interval : run.intervals()) {
            IntervalOperation o = interval.operations().get(op);
            if (o != null && plotted.test(o)) {
                xs.add(interval.t());
                ys.add(value.of(interval, o));
            }
        }
        if (xs.isEmpty()) {
            return null;
        }
        XYSeries s = chart.addSeries(series, xs, ys);
        if (xs.size() > MAX_POINTS_WITH_MARKERS) {
            s.setMarker(SeriesMarkers.NONE);
        }
        return s;
    }

    /** Observed latencies (end to end, ...) over time, from each interval's histogram. */
    private static XYSeries addObservation(XYChart chart, String series, RunResult run, String name,
                                           java.util.function.ToDoubleFunction<LatencySummary> figure) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (Interval interval : run.intervals()) {
            dev.gauntlet.core.result.Timing t = interval.observations().get(name);
            if (t != null && t.count() > 0) {
                xs.add(interval.t());
                ys.add(figure.applyAsDouble(t.latencyMs()));
            }
        }
        if (xs.isEmpty()) {
            return null;
        }
        XYSeries s = chart.addSeries(series, xs, ys);
        if (xs.size() > MAX_POINTS_WITH_MARKERS) {
            s.setMarker(SeriesMarkers.NONE);
        }
        return s;
    }

    static List<String> observationNames(RunResult run) {
        Set<String> names = new TreeSet<>(run.observations().keySet());
        run.intervals().forEach(i -> names.addAll(i.observations().keySet()));
        return List.copyOf(names);
    }

    private static void style(XYSeries series, Color colour, java.awt.BasicStroke line) {
        if (series != null) {
            series.setLineColor(colour);
            series.setMarkerColor(colour);
            series.setLineStyle(line);
        }
    }

    /**
     * The percentiles an interval (or phase) records, as {@link LatencySummary#of} read them from its histogram when it
     * was written (every result since p90 was recorded: mean and p99.9 are not kept, and read 0); for an older one,
     * read from its histogram when it has one, so the figures do not depend on a stored unit; else the stored figures,
     * with p90 NaN. Reading the stored figures spares decoding a histogram per interval, which a 12-hour timeline
     * cannot afford.
     */
    static LatencySummary percentiles(IntervalOperation o) {
        if (o.p90() != null) {
            return new LatencySummary(0, o.p50(), o.p90(), o.p95(), o.p99(), 0, o.max());
        }
        if (o.histogram() != null) {
            return LatencySummary.of(HistogramCodec.decode(o.histogram()));
        }
        return new LatencySummary(0, o.p50(), Double.NaN, o.p95(), o.p99(), 0, o.max());
    }

    /**
     * The legend is a column on the right, and the chart grows taller with the number of series, so every label
     * stays readable however many operations a workload has (a legend row under the plot is cut off at both ends
     * once the labels are wider than the chart).
     */
    private static XYChart chart(RunResult run, String title, String unit, int series) {
        int height = Math.max(HEIGHT, LEGEND_MARGIN + LEGEND_ROW * series);
        XYChart chart = new XYChartBuilder().width(WIDTH).height(height).title(title)
                .xAxisTitle(xAxisTitle(run)).yAxisTitle(unit).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(5);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        List<Phase> phases = run.phases();
        for (int i = 0; i < phases.size() && phases.size() > 1; i++) {
            Phase p = phases.get(i);
            // Unmeasured phases grey; measured ones alternate two light tints so neighbours stay apart.
            Color fill = !p.isMeasured() ? new Color(128, 128, 128, 40)
                    : i % 2 == 0 ? new Color(70, 130, 180, 28) : new Color(218, 165, 32, 32);
            chart.addAnnotation(TimelineBand.phase(p.name(), p.startSeconds(), p.endSeconds(), fill));
        }
        for (int i = 0; i < run.disruptions().size(); i++) {
            // Two rows of names below the phases' so neighbouring disruptions do not write over each other.
            chart.addAnnotation(TimelineBand.disruption(DisruptionSpan.of(run.disruptions().get(i)), 1 + i % 2));
        }
        for (double boundary : phaseBoundaries(run)) {
            chart.addAnnotation(new AnnotationLine(boundary, true, false));
        }
        return chart;
    }

    private static String xAxisTitle(RunResult run) {
        String disruptions = run.disruptions().isEmpty() ? "" : "red: disruptions";
        if (run.phases().size() < 2) {
            return "seconds since start" + (disruptions.isEmpty() ? "" : " (" + disruptions + ")");
        }
        StringBuilder t = new StringBuilder("seconds since start (bands: phases; ");
        for (int i = 0; i < run.phases().size(); i++) {
            Phase p = run.phases().get(i);
            t.append(i == 0 ? "" : ", ").append(p.name()).append(' ')
                    .append(Figures.seconds(p.startSeconds())).append('-').append(Figures.seconds(p.endSeconds()));
        }
        return t.append(disruptions.isEmpty() ? "" : "; " + disruptions).append(')').toString();
    }

    /** Inner boundaries only: a line at the first or last interval would just frame the plot. */
    private static Set<Double> phaseBoundaries(RunResult run) {
        double first = run.intervals().get(0).t() - run.intervals().get(0).seconds();
        double last = run.intervals().get(run.intervals().size() - 1).t();
        Set<Double> boundaries = new TreeSet<>();
        for (Phase p : run.phases()) {
            for (double b : new double[] {p.startSeconds(), p.endSeconds()}) {
                if (b > first && b < last) {
                    boundaries.add(b);
                }
            }
        }
        return boundaries;
    }

    /** Operations in the order of the totals table, then any that appear only in intervals. */
    static List<String> operationNames(RunResult run) {
        Set<String> names = new LinkedHashSet<>();
        run.operations().stream().map(OperationResult::name).forEach(names::add);
        for (Interval i : run.intervals()) {
            new TreeSet<>(i.operations().keySet()).forEach(names::add);
        }
        return List.copyOf(names);
    }

    private static byte[] png(String name, XYChart chart) {
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + name, e);
        }
    }
}

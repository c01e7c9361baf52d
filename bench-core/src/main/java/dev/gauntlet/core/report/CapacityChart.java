package dev.gauntlet.core.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A capacity search's latency-throughput curve: each step's latency objectives (measured, from the intended start)
 * against the rate it achieved, each budget a dashed line across, the answer a line up: as a PNG ({@value #PNG}) and
 * as a page a browser draws ({@value #HTML}, self-contained, with uPlot inlined).
 */
public final class CapacityChart {

    static {
        ChartFonts.missing(); // headless set, fonts probed, before anything of AWT loads here
        javax.imageio.ImageIO.setUseCache(false);
    }

    public static final String PNG = "capacity.png";
    public static final String HTML = "capacity.html";
    private static final String RESOURCES = "/dev/gauntlet/core/report/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Color[] COLOURS = {new Color(31, 119, 180), new Color(214, 39, 40), new Color(44, 160, 44),
            new Color(148, 103, 189), new Color(140, 86, 75)};

    /**
     * One step of the search.
     *
     * @param achieved  the rate it achieved
     * @param met       whether it met the objectives
     * @param latencies each latency objective's measured value (ms), by the objective's text
     */
    public record Point(double achieved, boolean met, Map<String, Double> latencies) {
    }

    private CapacityChart() {
    }

    /**
     * The PNG (left out where this machine has no fonts, as every chart is: {@link ChartFonts}) and the page, by
     * file name.
     *
     * @param budgets  each latency objective's bound (ms), by its text
     * @param answer   the achieved rate of the answer; NaN when there is none
     * @param headline the search's answer in words
     */
    public static Map<String, byte[]> render(List<Point> points, Map<String, Double> budgets, double answer,
                                             String unit, String headline) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(Point::achieved));
        Map<String, byte[]> files = new LinkedHashMap<>();
        if (ChartFonts.missing().isEmpty()) {
            try {
                files.put(PNG, png(sorted, budgets, answer, unit));
            } catch (RuntimeException | Error e) {
                ChartFonts.failed(e); // no chart, one line; never the search
            }
        }
        files.put(HTML, html(sorted, budgets, answer, unit, headline).getBytes(StandardCharsets.UTF_8));
        return files;
    }

    private static List<String> names(List<Point> points) {
        List<String> names = new ArrayList<>();
        points.forEach(p -> p.latencies().keySet().stream().filter(n -> !names.contains(n)).forEach(names::add));
        return names;
    }

    private static byte[] png(List<Point> points, Map<String, Double> budgets, double answer, String unit) {
        XYChart chart = new XYChartBuilder().width(1000).height(500).title("Latency against throughput")
                .xAxisTitle("achieved " + unit).yAxisTitle("ms (from the intended start)").build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setMarkerSize(8);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        List<String> names = names(points);
        double most = 0;
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            for (boolean met : new boolean[] {true, false}) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (Point p : points) {
                    Double v = p.latencies().get(name);
                    if (v != null && p.met() == met) {
                        x.add(p.achieved());
                        y.add(v);
                        most = Math.max(most, v);
                    }
                }
                if (x.isEmpty()) {
                    continue;
                }
                // Points, not a line: steps run one after another, and neighbours by rate need not be by time.
                XYSeries s = chart.addSeries(name + (met ? ": met" : ": missed"), x, y);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                s.setMarker(met ? SeriesMarkers.CIRCLE : SeriesMarkers.CROSS);
                s.setMarkerColor(COLOURS[i % COLOURS.length]);
            }
        }
        // Budgets far below the worst step would flatten the curve: the axis stops at 4x the largest budget.
        double top = budgets.values().stream().mapToDouble(Double::doubleValue).max().orElse(most);
        double yMax = Math.max(top * 1.2, Math.min(most * 1.05, top * 4));
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(yMax);
        long above = points.stream().flatMap(p -> p.latencies().values().stream()).filter(v -> v > yMax).count();
        if (above > 0) {
            chart.setTitle(String.format(java.util.Locale.ROOT, "Latency against throughput (%d value%s above %,.0f ms "
                    + "not drawn: see search.md)", above, above == 1 ? "" : "s", yMax));
        }
        double left = points.stream().mapToDouble(Point::achieved).min().orElse(0);
        double right = points.stream().mapToDouble(Point::achieved).max().orElse(1);
        budgets.forEach((name, bound) -> {
            XYSeries line = chart.addSeries("budget: " + name, List.of(left, right), List.of(bound, bound));
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(new Color(180, 35, 24));
            line.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                    new float[] {6, 4}, 0));
        });
        if (!Double.isNaN(answer)) {
            styler.setAnnotationLineColor(new Color(26, 127, 55));
            chart.addAnnotation(new AnnotationLine(answer, true, false));
        }
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + PNG, e);
        }
    }

    static String html(List<Point> points, Map<String, Double> budgets, double answer, String unit, String headline) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("unit", unit);
        data.put("answer", Double.isNaN(answer) ? null : answer);
        data.put("x", points.stream().map(Point::achieved).toList());
        data.put("met", points.stream().map(Point::met).toList());
        List<Map<String, Object>> series = new ArrayList<>();
        for (String name : names(points)) {
            series.add(Map.of("name", name, "y", points.stream().map(p -> p.latencies().get(name)).toList()));
        }
        data.put("series", series);
        data.put("budgets", budgets);
        String json;
        try {
            json = JSON.writeValueAsString(data).replace("</", "<\\/");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>Capacity search</title>\n<style>\n" + UPlot.stylesheet() + "\n</style>\n<style>\n"
                + InlineAsset.stylesheet(RESOURCES + "dashboard.css") + "\n</style>\n</head>\n<body>\n"
                + "<div id=\"errors\" class=\"errors\" hidden></div>\n<script>\n"
                + InlineAsset.script(RESOURCES + "page-errors.js") + "\n</script>\n<script>\n"
                + InlineAsset.script(RESOURCES + "capacity.js") + "\n</script>\n<header>\n<h1>Capacity search</h1>\n"
                + "<p class=\"facts\">" + HtmlTable.escape(headline) + "</p>\n<p class=\"hint\">Each point is a step: "
                + "its latency objectives (from the intended start) against the rate it achieved; dashed: the budgets; "
                + "green: the answer. Steps are listed in search.md.</p>\n</header>\n<main>\n<div id=\"capacity\"></div>\n"
                + "</main>\n<footer>Written by the capacity search. Chart drawn with uPlot (MIT licence), inlined."
                + "</footer>\n<script type=\"application/json\" id=\"capacity-data\">" + json + "</script>\n<script>\n"
                + UPlot.script() + "\n</script>\n</body>\n</html>\n";
    }
}

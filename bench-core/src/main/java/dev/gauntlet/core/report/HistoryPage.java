package dev.gauntlet.core.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.history.Change;
import dev.gauntlet.core.history.Figure;
import dev.gauntlet.core.history.HistoryRun;
import dev.gauntlet.core.history.RunHistory;
import dev.gauntlet.core.history.Series;
import dev.gauntlet.core.result.Redaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code history.html}: every figure of every series over its runs as a uPlot chart, change points marked with the
 * mean before and after drawn as levels, and under the cursor the run (number, start, labels, where it was read
 * from, its command). The change-point table comes first, each row linking to its chart. Self-contained like the
 * dashboard (uPlot, script, styles and data inlined; text escaped, every {@code <} in the data written
 * {@code \u003c}). After drawing, the body carries {@code data-rendered} (charts drawn) and {@code data-runs}
 * (runs in all series); a script error is shown at the top and sets {@code data-error}.
 */
public final class HistoryPage {

    /** The file name {@code report history} writes. */
    public static final String FILE = "history.html";

    private static final String RESOURCES = "/dev/gauntlet/core/report/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HistoryPage() {
    }

    public static String html(RunHistory history) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>History: ").append(history.runCount()).append(" runs</title>\n")
                .append("<style>\n").append(UPlot.stylesheet()).append("\n</style>\n")
                .append("<style>\n").append(InlineAsset.stylesheet(RESOURCES + "dashboard.css")).append("\n</style>\n")
                // Charts side by side as the window allows, each with its line of what is under the cursor.
                .append("<style>\n.charts { display: flex; flex-wrap: wrap; gap: 0 2rem; }\n"
                        + ".history-chart { width: 640px; margin-bottom: 1rem; }\n</style>\n")
                .append("</head>\n<body>\n<div id=\"errors\" class=\"errors\" hidden></div>\n")
                .append("<script>\n").append(InlineAsset.script(RESOURCES + "page-errors.js")).append("\n</script>\n")
                .append("<script>\n").append(InlineAsset.script(RESOURCES + "history.js")).append("\n</script>\n")
                .append("<header>\n<h1>History</h1>\n<p class=\"facts\">")
                .append(HtmlTable.escape(history.runCount() + " runs in " + history.series().size() + " series"))
                .append("</p>\n<p class=\"hint\">").append(HtmlTable.escape(HistoryReport.method(history.settings())))
                .append(" Hover a chart for the run under the cursor; drag to zoom, double-click to reset.</p>\n");
        for (String note : history.notes()) {
            html.append("<p class=\"hint\">").append(HtmlTable.escape(note)).append("</p>\n");
        }
        html.append("</header>\n<main>\n<section id=\"changes\">\n<h2>Change points, newest first</h2>\n");
        if (history.changes().isEmpty()) {
            html.append("<p>None: no figure of any series moved beyond the spread of its own runs.</p>\n");
        } else {
            html.append("<table>\n<thead><tr><th>Run</th><th>Series</th><th>Figure</th><th class=\"num\">Before</th>"
                    + "<th class=\"num\">After</th><th class=\"num\">Change</th><th class=\"num\">p</th>"
                    + "<th>Verdict</th></tr></thead>\n<tbody>\n");
            // Each series' figures in chart order, read once: a change links to its figure's chart.
            List<List<String>> figureNames = history.series().stream()
                    .map(series -> series.lines().keySet().stream().map(Figure::name).toList()).toList();
            for (Change c : history.changes()) {
                int s = history.series().indexOf(c.series());
                int f = figureNames.get(s).indexOf(c.figure().name());
                html.append("<tr class=\"").append(c.verdict()).append("\"><td>#").append(c.position() + 1).append(' ')
                        .append(HtmlTable.escape(c.run().labels())).append("</td><td>")
                        .append(HtmlTable.escape(c.series().key().title())).append("</td><td><a href=\"#chart-")
                        .append(s).append('-').append(f).append("\">").append(HtmlTable.escape(c.figure().title()))
                        .append("</a></td><td class=\"num\">").append(Figures.metric(c.before()))
                        .append("</td><td class=\"num\">").append(Figures.metric(c.after()))
                        .append("</td><td class=\"num\">").append(Figures.signedPercent(c.changePercent()))
                        .append("</td><td class=\"num\">").append(HistoryReport.pValue(c.pValue())).append("</td><td>")
                        .append(c.verdict()).append("</td></tr>\n");
            }
            html.append("</tbody>\n</table>\n");
        }
        html.append("</section>\n");
        for (int s = 0; s < history.series().size(); s++) {
            Series series = history.series().get(s);
            html.append("<section class=\"series\">\n<h2>").append(HtmlTable.escape(series.key().title()))
                    .append("</h2>\n<p class=\"facts\">").append(HtmlTable.escape(series.runs().size() + " runs. "
                            + series.key().describe())).append("</p>\n<div class=\"charts\" id=\"series-").append(s)
                    .append("\"></div>\n</section>\n");
        }
        html.append("</main>\n<footer>Written by report history. Charts drawn with uPlot (MIT licence), inlined."
                        + "</footer>\n<script type=\"application/json\" id=\"history-data\">").append(data(history))
                .append("</script>\n<script>\n").append(UPlot.script()).append("\n</script>\n</body>\n</html>\n");
        return html.toString();
    }

    /** Per series: its runs, and per figure the values with their run numbers and the change points. */
    private static String data(RunHistory history) {
        List<Map<String, Object>> all = new ArrayList<>();
        for (Series series : history.series()) {
            List<Map<String, Object>> runs = new ArrayList<>();
            for (HistoryRun run : series.runs()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("started", run.result().startedAt());
                r.put("labels", run.labels());
                r.put("source", run.source());
                r.put("command", run.result().command() == null ? "" : Redaction.url(run.result().command()));
                runs.add(r);
            }
            List<Change> changes = history.changes(series);
            List<Map<String, Object>> figures = new ArrayList<>();
            for (Map.Entry<Figure, Series.Line> e : series.lines().entrySet()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("title", e.getKey().title());
                f.put("better", e.getKey().better().json());
                f.put("x", e.getValue().positions());
                f.put("y", e.getValue().values());
                f.put("changes", changes.stream().filter(c -> c.figure().name().equals(e.getKey().name()))
                        .map(c -> Map.of("at", c.position(), "before", c.before(), "after", c.after(),
                                "text", Figures.signedPercent(c.changePercent()) + " " + c.verdict() + ", p="
                                        + HistoryReport.pValue(c.pValue()), "verdict", c.verdict().toString()))
                        .toList());
                figures.add(f);
            }
            all.add(Map.of("title", series.key().title(), "runs", runs, "figures", figures));
        }
        try {
            return JSON.writeValueAsString(Map.of("series", all)).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the history's data", e);
        }
    }
}

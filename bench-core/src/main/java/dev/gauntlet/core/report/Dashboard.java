package dev.gauntlet.core.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The interactive dashboard of one run, {@code dashboard.html}: the run's timeline as charts that zoom together into
 * any time window and show exact values under the cursor, with phases as shaded bands and disruptions (and when the
 * workload recovered from each) marked on every chart, named above each plot in labels that are laid out again at
 * every zoom so that none overprints another; beside the charts, the disruptions as a list, each zooming every chart
 * to it; then tables per phase and per disruption. Rendered from the {@link RunResult} alone, like report.md.
 *
 * <p>The page is self-contained: uPlot, the page's script and stylesheet, and the run's chart data are inlined, so it
 * opens from disk with no network and can be mailed or archived as one file. Text from the result (names, notes) is
 * escaped: in the tables as HTML, and in the inlined data every {@code <} is written {@code \u003c}, so no value can
 * end the data's {@code <script>} element. After drawing, the page sets {@code data-rendered} (charts drawn) and
 * {@code data-points} (points per series, one per interval) on its body; a script error is shown at the top of the
 * page and sets {@code data-error}.
 */
public final class Dashboard {

    /** The file name inside a run directory. */
    public static final String FILE = "dashboard.html";

    private static final String RESOURCES = "/dev/gauntlet/core/report/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RunResult run;
    private final StringBuilder html = new StringBuilder();

    private Dashboard(RunResult run) {
        this.run = run;
    }

    /** The page. */
    public static String html(RunResult run) {
        Dashboard d = new Dashboard(run);
        d.page();
        return d.html.toString();
    }

    /** Writes {@code dashboard.html} into {@code dir} (created if missing), replacing any old one atomically. */
    public static void write(RunResult run, Path dir) throws IOException {
        AtomicFiles.writeString(dir.resolve(FILE), html(run));
    }

    private void page() {
        List<DashboardCharts.Chart> charts = DashboardCharts.of(run);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(HtmlTable.escape(title())).append("</title>\n")
                .append("<style>\n").append(UPlot.stylesheet()).append("\n</style>\n")
                .append("<style>\n").append(InlineAsset.stylesheet(RESOURCES + "dashboard.css")).append("\n</style>\n")
                .append("</head>\n<body>\n")
                .append("<div id=\"errors\" class=\"errors\" hidden></div>\n")
                // First, so its error handler also reports a failure of the library's script.
                .append("<script>\n").append(InlineAsset.script(RESOURCES + "page-errors.js")).append("\n</script>\n")
                .append("<script>\n").append(InlineAsset.script(RESOURCES + "dashboard.js")).append("\n</script>\n");
        header();
        html.append("<main>\n");
        timeline(charts);
        phases();
        disruptions();
        metrics();
        html.append("</main>\n");
        html.append("<footer>").append(HtmlTable.escape(footer())).append("</footer>\n");
        html.append("<script type=\"application/json\" id=\"run-data\">").append(data(charts)).append("</script>\n")
                .append("<script>\n").append(UPlot.script()).append("\n</script>\n")
                .append("</body>\n</html>\n");
    }

    private String title() {
        StringBuilder t = new StringBuilder(Figures.orDash(run.workload()));
        if (run.variant() != null && !run.variant().isBlank()) {
            t.append(" — ").append(run.variant());
        }
        if (run.startedAt() != null) {
            t.append(" — ").append(run.startedAt());
        }
        return t.toString();
    }

    private void header() {
        html.append("<header>\n<h1>").append(HtmlTable.escape(Figures.orDash(run.workload())));
        if (run.variant() != null && !run.variant().isBlank()) {
            html.append(" <span class=\"variant\">— ").append(HtmlTable.escape(run.variant())).append("</span>");
        }
        html.append("</h1>\n");
        List<String> facts = new ArrayList<>();
        facts.add("started " + Figures.orDash(run.startedAt()));
        facts.add(Figures.seconds(run.measuredSeconds()) + " measured");
        facts.add(run.clients() + (run.clients() == 1 ? " client" : " clients"));
        Environment env = run.environment();
        if (env != null && env.database() != null) {
            facts.add(env.database());
        }
        html.append("<p class=\"facts\">").append(HtmlTable.escape(String.join(" · ", facts))).append("</p>\n");
        html.append("<div class=\"metrics\">\n");
        Double tpmC = run.metrics().get("tpmC");
        if (tpmC != null) {
            headline("tpmC", Figures.metric(tpmC));
        }
        Double unavailable = run.metrics().get("unavailableSeconds");
        if (unavailable != null) {
            headline("unavailable", Figures.seconds(unavailable));
        }
        if (!run.disruptions().isEmpty()) {
            long recovered = run.disruptions().stream().filter(r -> DisruptionSpan.of(r).recovered()).count();
            headline("disruptions", run.disruptions().size() + " (" + recovered + " recovered)");
        }
        html.append("</div>\n");
        if (run.command() != null && !run.command().isBlank()) {
            html.append("<details><summary>Command</summary><pre>").append(HtmlTable.escape(Redaction.url(run.command())))
                    .append("</pre></details>\n");
        }
        html.append("</header>\n");
    }

    private void headline(String name, String value) {
        html.append("<div class=\"metric\"><span class=\"value\">").append(HtmlTable.escape(value))
                .append("</span><span class=\"name\">").append(HtmlTable.escape(name)).append("</span></div>\n");
    }

    private void timeline(List<DashboardCharts.Chart> charts) {
        html.append("<section id=\"timeline\">\n<h2>Timeline</h2>\n");
        if (charts.isEmpty()) {
            html.append("<p>No reporting intervals were recorded, so there is no time series.</p>\n")
                    .append("<div id=\"charts\"></div>\n</section>\n");
            return;
        }
        html.append("<p class=\"hint\">").append(Figures.count(run.intervals().size()))
                .append(" reporting intervals. Drag across a chart to zoom into a time window (every chart follows); "
                        + "double-click a chart or press Reset zoom to see the whole run. Hover for exact values; "
                        + "click a legend entry to hide its line. Shaded bands are the phases, red spans the "
                        + "disruptions, green dashed lines when the workload was back to its baseline; their names "
                        + "are above each chart, by number where a name does not fit (phases explained under the "
                        + "chart, disruptions in the list). Click a disruption to zoom every chart to it.</p>\n")
                .append("<div class=\"controls\"><button id=\"reset-zoom\" type=\"button\">Reset zoom</button>");
        if (charts.stream().anyMatch(DashboardCharts.Chart::logScale)) {
            html.append(" <label><input type=\"checkbox\" id=\"log-scale\"> log scale for latency</label>");
        }
        html.append("</div>\n<div class=\"timeline\">\n<div id=\"charts\"></div>\n");
        disruptionList();
        html.append("</div>\n</section>\n");
    }

    /**
     * The disruptions beside the charts, numbered as the charts label them when a name does not fit: each a button
     * that zooms every chart to it ({@code data-disruption} is its index in the result), then one for the whole run.
     */
    private void disruptionList() {
        List<DisruptionRecord> disruptions = run.disruptions();
        if (disruptions.isEmpty()) {
            return;
        }
        html.append("<nav id=\"disruption-list\" aria-label=\"Disruptions\">\n<h3>Disruptions</h3>\n<ol>\n");
        for (int i = 0; i < disruptions.size(); i++) {
            DisruptionSpan span = DisruptionSpan.of(disruptions.get(i));
            String verdict = !span.happened() ? "not started" : span.recovery() == null ? "" : span.recoveryText();
            html.append("<li><button type=\"button\" data-disruption=\"").append(i).append("\">")
                    .append("<span class=\"number\">").append(i + 1).append("</span>")
                    .append("<span class=\"name\">").append(HtmlTable.escape(span.name())).append("</span>")
                    .append("<span class=\"when\">").append(span.when()).append("</span>");
            if (!verdict.isEmpty()) {
                html.append("<span class=\"").append(span.recovered() ? "recovered" : "not-recovered").append("\">")
                        .append(HtmlTable.escape(verdict)).append("</span>");
            }
            html.append("</button></li>\n");
        }
        html.append("</ol>\n<button type=\"button\" id=\"whole-run\">Whole run</button>\n</nav>\n");
    }

    private void phases() {
        html.append("<section id=\"phases\">\n<h2>Phases</h2>\n");
        if (run.phases().isEmpty()) {
            html.append("<p>The result records no phases.</p>\n</section>\n");
            return;
        }
        List<PhaseSummary> summaries = PhaseSummary.of(run);
        MarkdownTable phases = new MarkdownTable().left("Phase").right("Start", "End", "Length").left("Measured")
                .right("Unavailable").left("Failures by class");
        for (PhaseSummary s : summaries) {
            Phase p = s.phase();
            phases.row(p.name(), Figures.seconds(p.startSeconds()), Figures.seconds(p.endSeconds()),
                    Figures.seconds(s.seconds()), p.isMeasured() ? "yes" : "no", Figures.seconds(s.unavailableSeconds()),
                    s.failuresText());
        }
        html.append("<p>Unavailable: the length of the phase's intervals in which no operation of any kind "
                + "committed. Failures include retried attempts and failed reconnects, by class.</p>\n")
                .append(HtmlTable.of(phases));
        boolean tpmC = summaries.stream().anyMatch(s -> s.phase().operations().containsKey(DashboardCharts.TPMC_OPERATION));
        MarkdownTable ops = new MarkdownTable().left("Phase", "op").right("count", "ops/s");
        if (tpmC) {
            ops.right(DashboardCharts.TPMC_OPERATION + "/min (tpmC)");
        }
        ops.right("p90", "p95", "p99", "errors");
        for (PhaseSummary s : summaries) {
            s.phase().operations().forEach((op, f) -> {
                List<String> cells = new ArrayList<>(List.of(s.phase().name(), op, Figures.count(f.count())));
                double perSecond = Figures.perSecond(f.count(), s.seconds(), f.opsPerSecond());
                cells.add(Figures.rate(perSecond));
                if (tpmC) {
                    cells.add(DashboardCharts.TPMC_OPERATION.equals(op)
                            ? Figures.metric(DashboardCharts.tpmC(f, s.seconds())) : "—");
                }
                LatencySummary l = TimelineCharts.percentiles(f);
                boolean committed = f.count() > 0;
                cells.addAll(List.of(committed ? msOrDash(l.p90()) : "—", committed ? Figures.ms(l.p95()) : "—",
                        committed ? Figures.ms(l.p99()) : "—", Figures.count(f.errors())));
                ops.row(cells);
            });
        }
        if (!ops.isEmpty()) {
            html.append("<h3>Operations per phase</h3>\n<p>From each phase's summed histograms; latency in ms from "
                    + "each operation's intended start.</p>\n").append(HtmlTable.of(ops));
        }
        html.append("</section>\n");
    }

    private static String msOrDash(double ms) {
        return Double.isFinite(ms) ? Figures.ms(ms) : "—";
    }

    private void disruptions() {
        if (run.disruptions().isEmpty()) {
            return;
        }
        html.append("<section id=\"disruptions\">\n<h2>Disruptions</h2>\n<p>")
                .append(HtmlTable.escape(RunReport.DISRUPTIONS_EXPLAINED)).append("</p>\n")
                .append(HtmlTable.of(RunReport.disruptionTable(run))).append("</section>\n");
    }

    private void metrics() {
        if (run.metrics().isEmpty()) {
            return;
        }
        MarkdownTable t = new MarkdownTable().left("Metric").right("Value");
        new TreeMap<>(run.metrics()).forEach((k, v) -> t.row(k, v == null ? "—" : Figures.metric(v)));
        html.append("<section id=\"metrics\">\n<h2>Workload metrics</h2>\n").append(HtmlTable.of(t))
                .append("</section>\n");
    }

    private String footer() {
        String tool = run.tool() == null ? "Gauntlet" : Figures.orDash(run.tool().name()) + " "
                + Figures.orDash(run.tool().version());
        return "Written by " + tool + " from result.json" + (run.runId() == null ? "" : " of run " + run.runId())
                + ". Charts drawn with uPlot (MIT licence), inlined.";
    }

    /** The charts and what every chart marks, as JSON safe inside a script element. */
    private String data(List<DashboardCharts.Chart> charts) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("x", DashboardCharts.x(run));
        data.put("charts", charts);
        List<Map<String, Object>> phases = new ArrayList<>();
        for (Phase p : run.phases()) {
            Map<String, Object> phase = new LinkedHashMap<>();
            phase.put("name", p.name());
            phase.put("start", p.startSeconds());
            phase.put("end", p.endSeconds());
            phase.put("measured", p.isMeasured());
            phases.add(phase);
        }
        data.put("phases", phases);
        List<Map<String, Object>> disruptions = new ArrayList<>();
        for (DisruptionRecord r : run.disruptions()) {
            DisruptionSpan span = DisruptionSpan.of(r);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", span.name());
            d.put("start", span.start());
            d.put("end", span.end());
            d.put("happened", span.happened());
            d.put("recovery", span.recovery());
            d.put("recoveredAt", span.recoveredAt());
            d.put("recoveryText", span.recoveryText());
            disruptions.add(d);
        }
        data.put("disruptions", disruptions);
        try {
            return JSON.writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the dashboard's data", e);
        }
    }
}

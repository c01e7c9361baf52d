package dev.gauntlet.core.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.result.ObjectiveOutcome;
import dev.gauntlet.core.result.AtomicFiles;
import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.LatencySummary;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
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
 * to it; then tables per phase and per disruption. Rendered from the {@link RunResult} alone, like report.md, and
 * its full {@link Timeline}: every reporting interval, from the run's timeline file when the result keeps them
 * downsampled (a long run's).
 *
 * <p>However long the run, the page draws each chart with about two points per pixel of its width: where an interval
 * range holds more intervals than that, each bucket of them is drawn by its minimum and maximum (in the order they
 * came), so no spike and no drop disappears; zoomed in far enough, every interval is drawn. The page holds every
 * interval's values once (a 12-hour run at one-second intervals: 43,200 points a series) and downsamples in the
 * browser at every zoom (dashboard.js).
 *
 * <p>The page is self-contained: uPlot, the page's script and stylesheet, and the run's chart data are inlined, so it
 * opens from disk with no network and can be mailed or archived as one file. Text from the result (names, notes) is
 * escaped: in the tables as HTML, and in the inlined data every {@code <} is written {@code \u003c}, so no value can
 * end the data's {@code <script>} element. After drawing, the page sets {@code data-rendered} (charts drawn),
 * {@code data-points} (points per series, one per interval), {@code data-drawn-points} (the points each chart draws
 * at the current zoom) and {@code data-load-ms} (milliseconds from navigation until every chart first drew, by
 * {@code performance.now()}) on its body; a script error is shown at the top of the page and sets
 * {@code data-error}.
 */
public final class Dashboard {

    /** The file name inside a run directory. */
    public static final String FILE = "dashboard.html";

    private static final String RESOURCES = "/dev/gauntlet/core/report/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RunResult run;
    private final Timeline timeline;
    private final StringBuilder html = new StringBuilder();

    private Dashboard(RunResult run, Timeline timeline) {
        this.run = run;
        this.timeline = timeline;
    }

    /** The page of the result's own intervals (a long run's downsampled). */
    public static String html(RunResult run) {
        return html(run, Timeline.of(run.intervals()));
    }

    /** The page of every interval of {@code timeline}, the run's full timeline. */
    public static String html(RunResult run, Timeline timeline) {
        StringWriter page = new StringWriter();
        try {
            new Dashboard(run, timeline).page(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not throw
        }
        return page.toString();
    }

    /**
     * Writes {@code dashboard.html} into {@code dir} (created if missing), replacing any old one atomically, from
     * every interval of the run: its timeline file in {@code dir} when the result names one. The page is streamed
     * to the file: the run's data (megabytes for a run of hours) is never held as one string.
     */
    public static void write(RunResult run, Path dir) throws IOException {
        Dashboard d = new Dashboard(run, Timeline.of(run, dir));
        AtomicFiles.write(dir.resolve(FILE), out -> {
            Writer page = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            d.page(page);
            page.flush();
        });
    }

    /** The page: everything but the data built as text, the data streamed between. */
    private void page(Writer out) throws IOException {
        DashboardCharts.Charts drawn = DashboardCharts.of(run, timeline);
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
        timeline(drawn);
        phases();
        disruptions();
        metrics();
        html.append("</main>\n");
        html.append("<footer>").append(HtmlTable.escape(footer())).append("</footer>\n");
        html.append("<script type=\"application/json\" id=\"run-data\">");
        out.write(html.toString());
        data(drawn, out);
        out.write("</script>\n<script>\n" + UPlot.script() + "\n</script>\n</body>\n</html>\n");
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
            headline("disruptions", run.disruptions().size() + verdicts(run));
        }
        if (!run.objectives().isEmpty()) {
            long met = run.objectives().stream().filter(ObjectiveOutcome::met).count();
            headline("objectives", (run.missedAnObjective() ? "MISSED " : "MET ") + met + " of "
                    + run.objectives().size());
        }
        html.append("</div>\n");
        if (!run.objectives().isEmpty()) {
            html.append("<ul class=\"objectives\">\n");
            for (ObjectiveOutcome o : run.objectives()) {
                html.append("<li>").append(HtmlTable.escape(o.line()))
                        .append("</li>\n");
            }
            html.append("</ul>\n");
        }
        if (run.command() != null && !run.command().isBlank()) {
            html.append("<details><summary>Command</summary><pre>").append(HtmlTable.escape(Redaction.url(run.command())))
                    .append("</pre></details>\n");
        }
        html.append("</header>\n");
    }

    /** " (3 recovered, 1 not recovered, 11 not judged)": each verdict the run's disruptions got, counted as such. */
    private static String verdicts(RunResult run) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String verdict : List.of(DisruptionRecord.RECOVERED, DisruptionRecord.NOT_RECOVERED,
                DisruptionRecord.NOT_JUDGED)) {
            long n = run.disruptions().stream().filter(r -> verdict.equals(r.recovery())).count();
            if (n > 0) {
                counts.put(verdict, n);
            }
        }
        if (counts.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(" (");
        counts.forEach((verdict, n) -> b.append(b.length() > 2 ? ", " : "").append(n).append(' ').append(verdict));
        return b.append(')').toString();
    }

    private void headline(String name, String value) {
        html.append("<div class=\"metric\"><span class=\"value\">").append(HtmlTable.escape(value))
                .append("</span><span class=\"name\">").append(HtmlTable.escape(name)).append("</span></div>\n");
    }

    private void timeline(DashboardCharts.Charts drawn) {
        List<DashboardCharts.Chart> charts = drawn.charts();
        html.append("<section id=\"timeline\">\n<h2>Timeline</h2>\n");
        if (charts.isEmpty()) {
            html.append("<p>No reporting intervals were recorded, so there is no time series.</p>\n")
                    .append("<div id=\"charts\"></div>\n</section>\n");
            return;
        }
        if (timeline.downsampled()) {
            html.append("<p class=\"notice\">The run's timeline file").append(run.fullTimeline() == null ? ""
                            : " (" + HtmlTable.escape(run.fullTimeline().file()) + ")")
                    .append(" is not beside its result: these are the result's ").append(Figures.count(drawn.points()))
                    .append(" downsampled intervals, each merging consecutive ones, of the run's ")
                    .append(Figures.count(run.reportingIntervals())).append(".</p>\n");
        }
        html.append("<p class=\"hint\">").append(Figures.count(drawn.points()))
                .append(" reporting intervals; where a chart has more of them than it has room for, it draws each "
                        + "stretch by its lowest and highest value, and every interval once zoomed in. Drag across a "
                        + "chart to zoom into a time window (every chart follows); "
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
            String verdict = !disruptions.get(i).injected() ? "planned: another worker injects it"
                    : !span.happened() ? "not started" : span.recovery() == null ? "" : span.recoveryText();
            html.append("<li><button type=\"button\" data-disruption=\"").append(i).append("\">")
                    .append("<span class=\"number\">").append(i + 1).append("</span>")
                    .append("<span class=\"name\">").append(HtmlTable.escape(span.name())).append("</span>")
                    .append("<span class=\"when\">").append(span.when()).append("</span>");
            if (!verdict.isEmpty()) {
                html.append("<span class=\"").append(span.recovered() ? "recovered" : span.notJudged() ? "not-judged"
                        : "not-recovered").append("\">")
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
                .append(HtmlTable.escape(DisruptionTable.EXPLAINED)).append("</p>\n")
                .append(HtmlTable.of(DisruptionTable.of(run))).append("</section>\n");
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

    /**
     * The charts and what every chart marks, as JSON safe inside a script element (every {@code <} written
     * {@code \u003c}: in JSON it can only be inside a string), streamed to {@code out}.
     */
    private void data(DashboardCharts.Charts drawn, Writer out) throws IOException {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("x", drawn.x());
        data.put("charts", drawn.charts());
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
        JSON.writeValue(new LessThanEscaped(out), data);
    }

    /** Text with every {@code <} written {@code \u003c}, so no value can end the script element holding it. */
    private static final class LessThanEscaped extends FilterWriter {

        private static final String ESCAPED = "\\u003c";

        LessThanEscaped(Writer out) {
            super(out);
        }

        @Override
        public void write(int c) throws IOException {
            if (c == '<') {
                out.write(ESCAPED);
            } else {
                out.write(c);
            }
        }

        @Override
        public void write(char[] text, int offset, int length) throws IOException {
            int from = offset;
            for (int i = offset; i < offset + length; i++) {
                if (text[i] == '<') {
                    out.write(text, from, i - from);
                    out.write(ESCAPED);
                    from = i + 1;
                }
            }
            out.write(text, from, offset + length - from);
        }

        @Override
        public void write(String text, int offset, int length) throws IOException {
            write(text.toCharArray(), offset, length);
        }

        /** The page goes on after the data: the JSON writer's close is only a flush. */
        @Override
        public void close() throws IOException {
            flush();
        }
    }
}

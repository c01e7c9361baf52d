package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Phase;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dashboard.html: what the page holds (a run through faults: three phases, two disruptions, two operations,
 * failures by class), that it is self-contained and escapes what the result says, that a real headless Chromium
 * draws every chart without a script error, and the {@code report dashboard} command.
 */
class DashboardTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DATA = Pattern.compile(
            "<script type=\"application/json\" id=\"run-data\">(.*?)</script>", Pattern.DOTALL);
    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");
    /** The window width the issue was seen at: a laptop's full screen. */
    private static final int WIDE = 1400;

    @TempDir
    Path tmp;

    @Test
    void pageHoldsTheRunsChartsAndTables() throws IOException {
        RunResult run = RunFixture.throughFaults();
        String html = Dashboard.html(run);

        assertEquals(List.of("throughput", "latency", "failures", "gauge-replicationLagBytes"),
                DashboardCharts.of(run).stream().map(DashboardCharts.Chart::id).toList());
        JsonNode data = data(html);
        assertEquals(18, data.get("x").size(), "one point per interval");
        assertEquals(5.0, data.get("x").get(0).asDouble());
        assertEquals(4, data.get("charts").size());
        assertEquals(3, data.get("phases").size());

        JsonNode throughput = chart(data, "throughput");
        assertEquals("newOrder/min", throughput.get("rightUnit").asText());
        // 30 newOrders in the first 5 s interval: 6 ops/s; 3 of them rolled back, so 27 are tpmC: 324 per minute.
        assertEquals(6.0, series(throughput, "newOrder").get(0).asDouble(), 1e-9);
        assertEquals(324.0, series(throughput, "newOrder per minute (tpmC)").get(0).asDouble(), 1e-9);
        assertEquals("right", seriesNode(throughput, "newOrder per minute (tpmC)").get("scale").asText());
        // Nothing committed at 35 s: throughput 0 (a drop), latency a gap.
        assertEquals(0.0, series(throughput, "payment").get(6).asDouble());
        JsonNode latency = chart(data, "latency");
        assertEquals(List.of("newOrder p90", "newOrder p95", "newOrder p99", "payment p90", "payment p95",
                "payment p99"), labels(latency));
        assertTrue(series(latency, "newOrder p90").get(6).isNull());
        // At 5 s ten each of 2.5, 5.5 and 20.5 ms: p90 is the slowest third.
        assertEquals(20.5, series(latency, "newOrder p90").get(0).asDouble(), 0.05);
        assertEquals(List.of("connection", "retried", "timeout"), labels(chart(data, "failures")));
        assertEquals(4.0, series(chart(data, "failures"), "connection").get(6).asDouble());

        JsonNode kill = data.get("disruptions").get(0);
        assertEquals("kill-primary", kill.get("name").asText());
        assertEquals(44.0, kill.get("recoveredAt").asDouble(), 1e-9, "12 s after its end at 32 s");
        assertEquals("recovered in 12.0s", kill.get("recoveryText").asText());
        JsonNode partition = data.get("disruptions").get(1);
        assertEquals("not recovered", partition.get("recoveryText").asText());
        assertTrue(partition.get("recoveredAt").isNull());

        // Header, phase and disruption tables.
        assertTrue(html.contains("<h1>tpcc <span class=\"variant\">— failover</span></h1>"), html);
        assertTrue(html.contains("<span class=\"value\">300.00</span><span class=\"name\">tpmC</span>"));
        assertTrue(html.contains("<span class=\"value\">10.0s</span><span class=\"name\">unavailable</span>"));
        String squeezed = html.replaceAll("\\s+", " ");
        assertTrue(squeezed.contains("<td>fault</td><td class=\"num\">30.0s</td><td class=\"num\">60.0s</td>"
                + "<td class=\"num\">30.0s</td><td>yes</td><td class=\"num\">10.0s</td>"
                + "<td>connection 7, retried 3, timeout 2</td>"), "fault phase: 10 s unavailable, failures summed");
        assertTrue(squeezed.contains("<td>baseline</td><td class=\"num\">0.0s</td><td class=\"num\">30.0s</td>"
                + "<td class=\"num\">30.0s</td><td>yes</td><td class=\"num\">0.0s</td><td>—</td>"));
        // Baseline: 6 intervals of 30 newOrders in 30 s is 6/s; 18 rolled back, so 162 in 30 s: 324 tpmC.
        assertTrue(squeezed.contains("<td>baseline</td><td>newOrder</td><td class=\"num\">180</td>"
                + "<td class=\"num\">6.00</td><td class=\"num\">324.00</td>"), html);
        assertTrue(html.contains("<td>recovered in 12.0s</td>"));
        assertTrue(html.contains("<td>not recovered</td>"));
        assertTrue(html.contains("pg_ctl stop -m immediate"));
    }

    @Test
    void pageIsSelfContainedAndEscapesWhatTheResultSays() {
        String html = Dashboard.html(RunFixture.throughFaults());
        assertTrue(html.contains(UPlot.script()), "uPlot is inlined");
        assertTrue(html.contains(UPlot.stylesheet()));
        assertTrue(html.contains("var uPlot="), "uPlot's own script, not a reference to it");
        String lower = html.toLowerCase(Locale.ROOT);
        assertFalse(lower.contains("src=\"http"), "no script or image from the network");
        assertFalse(lower.contains("href=\"http"), "no stylesheet or link to the network");
        assertFalse(lower.contains("<link"), "no external stylesheet");
        assertFalse(lower.contains("<script src"), "no external script");
        assertFalse(lower.contains("<iframe"));

        // Four script elements (the shared error reporting, the page's, the data, uPlot), each closed once: no value
        // ended one early.
        assertEquals(4, count(lower, "<script"));
        assertEquals(4, count(lower, "</script>"));
        assertFalse(html.contains("<script>alert(1)"), "markup in notes is text");
        assertFalse(html.contains("<b>x</b>"), "markup in names is text");
        assertTrue(html.contains("iptables &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertTrue(html.contains("partition \\u003c/script>\\u003cb>x\\u003c/b>"), "escaped in the inlined data");
        // ... and still the same text once the data is parsed.
        assertEquals("partition </script><b>x</b>", data(html).get("disruptions").get(1).get("name").asText());
    }

    @Test
    void runWithoutIntervalsSaysSoAndDrawsNothing() {
        RunResult run = new RunFixture().operation("get", RunFixture.millis(1, 0.004)).build();
        String html = Dashboard.html(run);
        assertTrue(DashboardCharts.of(run).isEmpty());
        assertTrue(html.contains("No reporting intervals were recorded"), html);
        assertEquals(0, data(html).get("x").size());
    }

    /**
     * The page in a real browser: headless Chromium loads it from disk (no network), runs its script and uPlot's,
     * and the DOM it dumps says every chart was drawn, with one point per interval and no script error.
     */
    @Test
    void headlessChromiumDrawsEveryChart() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: the page is not drawn in a browser");
        RunResult run = RunFixture.throughFaults();
        Path dir = tmp.resolve("run");
        Dashboard.write(run, dir);

        String dom = dumpDom(chromium.get(), dir.resolve(Dashboard.FILE));
        Matcher body = BODY.matcher(dom);
        assertTrue(body.find(), dom);
        String attributes = body.group(1);
        assertFalse(attributes.contains("data-error"), "script error: " + attributes + "\n" + errors(dom));
        assertEquals(String.valueOf(DashboardCharts.of(run).size()), attribute(attributes, "data-rendered"),
                "charts drawn; " + errors(dom));
        assertEquals(String.valueOf(run.intervals().size()), attribute(attributes, "data-points"));
        assertEquals(DashboardCharts.of(run).size(), count(dom, "<canvas"), "uPlot draws each chart on a canvas");
    }

    /**
     * What a user does, in a real browser: a drag across one chart zooms every chart to that window, a double-click
     * shows the whole run again, and a script error is shown on the page and flagged on its body. A probe script
     * appended to a copy of the page drives it with mouse events and writes what it saw into the body's data.
     */
    @Test
    void inChromiumADragZoomsEveryChartAndAnErrorIsShown() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: the page is not driven in a browser");
        RunResult run = RunFixture.throughFaults();
        String probe = """
                <script>
                window.addEventListener('load', async function () {
                  const sleep = ms => new Promise(r => setTimeout(r, ms));
                  const ranges = () => uPlot.sync('gauntlet-run').plots
                      .map(p => p.scales.x.min.toFixed(1) + '..' + p.scales.x.max.toFixed(1)).join(' ');
                  await sleep(300);
                  const over = document.querySelectorAll('.u-over')[1];
                  const box = over.getBoundingClientRect();
                  const mouse = (type, at, target) => (target || over).dispatchEvent(new MouseEvent(type, {
                      bubbles: true, button: 0, buttons: 1, movementX: 5,
                      clientX: box.left + box.width * at, clientY: box.top + box.height / 2}));
                  mouse('mouseenter', 0.3); mouse('mousemove', 0.3); await sleep(50);
                  mouse('mousedown', 0.3); await sleep(50);
                  mouse('mousemove', 0.45); await sleep(50);
                  mouse('mousemove', 0.6); await sleep(50);
                  mouse('mouseup', 0.6, document); await sleep(300);
                  document.body.dataset.zoomed = ranges();
                  mouse('dblclick', 0.5); await sleep(300);
                  document.body.dataset.whole = ranges();
                  setTimeout(() => { throw new Error('probe error'); }, 0);
                });
                </script>
                </body>""";
        Path page = tmp.resolve("probe.html");
        Files.writeString(page, Dashboard.html(run).replace("</body>", probe));

        String dom = dumpDom(chromium.get(), page);
        Matcher body = BODY.matcher(dom);
        assertTrue(body.find(), dom);
        String attributes = body.group(1);
        String zoomed = attribute(attributes, "data-zoomed");
        assertTrue(zoomed != null && zoomed.matches("(3\\d\\.\\d\\.\\.5\\d\\.\\d ?){4}")
                && zoomed.split(" ")[0].equals(zoomed.split(" ")[3]), "all four charts zoomed alike: " + attributes);
        assertEquals("5.0..90.0 5.0..90.0 5.0..90.0 5.0..90.0", attribute(attributes, "data-whole"));
        assertTrue(attribute(attributes, "data-error").contains("probe error"), attributes);
        assertTrue(errors(dom).contains("probe error"), errors(dom));
    }

    /**
     * Labels never overprint, at 1400 px and zoomed on each disruption, in a run as crowded as the real adversity
     * runs. A probe appended to the page records every chart's x range and the boxes of the labels above its plot:
     * for the whole run, after a click on each disruption of the list, and after "Whole run". No two boxes
     * intersect, none leaves its strip or is cut short; every disruption and phase in view is named (by number
     * where the name does not fit, a phase's then explained in the legend), and zoomed on a disruption, it is named
     * in full and its recovery flagged.
     */
    @Test
    void inChromiumNoTwoLabelsOverlapAtAnyZoom() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: the labels are not laid out");
        RunResult run = RunFixture.underAdversity();
        String probe = """
                <script>
                window.addEventListener('load', async function () {
                  const sleep = ms => new Promise(r => setTimeout(r, ms));
                  const rect = e => {
                    const r = e.getBoundingClientRect();
                    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
                  };
                  const state = name => ({name: name,
                    pressed: [...document.querySelectorAll('#disruption-list [aria-pressed="true"]')]
                        .map(b => Number(b.dataset.disruption)),
                    charts: uPlot.sync('gauntlet-run').plots.map(p => ({
                      min: p.scales.x.min, max: p.scales.x.max, strip: rect(p.root.querySelector('.strip')),
                      labels: [...p.root.querySelectorAll('.strip [data-label]')].map(e => ({kind: e.dataset.label,
                          index: e.dataset.index, text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
                          box: rect(e)})),
                      legend: [...p.root.querySelectorAll('[data-phase-legend]')]
                          .map(e => Number(e.dataset.phaseLegend))}))});
                  await sleep(300);
                  const states = [state('whole run')];
                  for (const b of document.querySelectorAll('#disruption-list [data-disruption]')) {
                    b.click();
                    await sleep(100);
                    states.push(state('zoomed on disruption ' + b.dataset.disruption));
                  }
                  document.getElementById('whole-run').click();
                  await sleep(100);
                  states.push(state('whole run again'));
                  document.body.dataset.probe = btoa(unescape(encodeURIComponent(JSON.stringify(states))));
                });
                </script>
                </body>""";
        Path page = tmp.resolve("probe.html");
        Files.writeString(page, Dashboard.html(run).replace("</body>", probe));

        String dom = HeadlessChromium.dumpDom(chromium.get(), page.toUri().toString(), WIDE, tmp);
        String attributes = HeadlessChromium.bodyAttributes(dom);
        assertFalse(attributes.contains("data-error"), "script error: " + attributes + "\n" + errors(dom));
        String probed = attribute(attributes, "data-probe");
        assertTrue(probed != null, "the probe did not finish: " + attributes);
        JsonNode states = JSON.readTree(Base64.getDecoder().decode(probed));
        List<DisruptionSpan> disruptions = run.disruptions().stream().map(DisruptionSpan::of).toList();
        assertEquals(disruptions.size() + 2, states.size(), "whole run, each disruption, whole run again");
        double first = run.intervals().get(0).t();
        double last = run.intervals().get(run.intervals().size() - 1).t();
        for (JsonNode state : states) {
            String name = state.get("name").asText();
            assertEquals(DashboardCharts.of(run).size(), state.get("charts").size(), name);
            for (JsonNode chart : state.get("charts")) {
                assertReadable(run, name, chart);
            }
            JsonNode chart = state.get("charts").get(0);
            if (name.startsWith("whole run")) {
                assertEquals(first, chart.get("min").asDouble(), 1e-9, name);
                assertEquals(last, chart.get("max").asDouble(), 1e-9, name);
                assertEquals(0, state.get("pressed").size(), name + ": no disruption marked in the list");
            } else {
                int index = Integer.parseInt(name.replaceAll("\\D+", ""));
                DisruptionSpan d = disruptions.get(index);
                assertEquals(List.of(index), ints(state.get("pressed")), name + ": marked in the list");
                double to = d.recovered() ? d.recoveredAt() : d.end();
                assertTrue(chart.get("min").asDouble() < d.start() && chart.get("max").asDouble() > to,
                        name + ": the disruption and its recovery in view, with a margin: " + chart);
                List<Label> labels = stripLabels(chart);
                assertTrue(labels.stream().anyMatch(l -> l.kind().equals("disruption")
                        && l.indexes().equals(List.of(index)) && l.text().startsWith(d.name())),
                        name + ": named in full once zoomed to: " + labels);
                assertTrue(d.recovery() == null || labels.stream().anyMatch(l -> l.kind().equals("recovery")
                        && l.indexes().contains(index)), name + ": its recovery flagged: " + labels);
            }
        }
        // The whole run at 1400 px is crowded: disruption names are staggered, some shown by their number, and the
        // 4 s phases (restarts, network) are numbered and explained in the legend.
        List<Label> whole = stripLabels(states.get(0).get("charts").get(0));
        List<Label> named = whole.stream().filter(l -> l.kind().equals("disruption")).toList();
        assertTrue(named.stream().map(l -> l.box().top()).distinct().count() >= 2, "staggered: " + named);
        assertTrue(named.stream().anyMatch(l -> l.text().equals(String.valueOf(l.indexes().get(0) + 1))),
                "numbered where names do not fit: " + named);
        List<Integer> legend = ints(states.get(0).get("charts").get(0).get("legend"));
        assertTrue(legend.containsAll(List.of(3, 4)), "the two 4 s phases in the legend: " + legend + ", " + whole);
    }

    /**
     * The dashboard as a reader sees it at 1400 px: screenshots of the whole run and of the page opened at
     * {@code #disruption=4} (zoomed on the fourth disruption, marked in the list), kept in target/screenshots.
     */
    @Test
    void inChromiumTheDashboardIsPhotographedAt1400Px() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: no screenshot");
        Path dir = tmp.resolve("run");
        Dashboard.write(RunFixture.underAdversity(), dir);
        String url = dir.resolve(Dashboard.FILE).toUri().toString();
        Path shots = Files.createDirectories(Path.of("target", "screenshots"));
        for (String fragment : List.of("", "#disruption=4")) {
            Path png = shots.resolve("dashboard-1400" + fragment.replaceAll("\\W+", "-") + ".png");
            HeadlessChromium.screenshot(chromium.get(), url + fragment, WIDE, 2000, png, tmp);
            byte[] header = Arrays.copyOf(Files.readAllBytes(png), 24);
            assertEquals("\u0089PNG\r\n\u001a\n", new String(header, 0, 8, StandardCharsets.ISO_8859_1),
                    png + " is a PNG");
            assertEquals("IHDR", new String(header, 12, 4, StandardCharsets.US_ASCII));
            ByteBuffer size = ByteBuffer.wrap(header, 16, 8);
            assertEquals(WIDE, size.getInt(), png + ": width");
            assertEquals(2000, size.getInt(), png + ": height");
        }
        String zoomed = HeadlessChromium.dumpDom(chromium.get(), url + "#disruption=4", WIDE, tmp);
        assertFalse(HeadlessChromium.bodyAttributes(zoomed).contains("data-error"), errors(zoomed));
        assertTrue(zoomed.contains("<button type=\"button\" data-disruption=\"3\" aria-pressed=\"true\">"),
                "opened zoomed on the fourth disruption: " + zoomed);
    }

    /** The names above one chart's plot are all there, and all its labels inside it, whole and apart. */
    private static void assertReadable(RunResult run, String state, JsonNode chart) {
        double min = chart.get("min").asDouble();
        double max = chart.get("max").asDouble();
        double slack = (max - min) * 1e-6;
        String where = state + ", " + min + ".." + max + " s: ";
        Box strip = Box.of(chart.get("strip"));
        List<Label> labels = stripLabels(chart);
        for (int i = 0; i < labels.size(); i++) {
            Label a = labels.get(i);
            assertTrue(a.box().within(strip), where + a + " leaves its strip " + strip);
            assertFalse(a.cut(), where + a + " is cut short");
            for (Label b : labels.subList(i + 1, labels.size())) {
                assertFalse(a.box().overlaps(b.box()), where + a + " overlaps " + b);
            }
        }
        List<Integer> legend = ints(chart.get("legend"));
        for (int i = 0; i < run.phases().size(); i++) {
            Phase p = run.phases().get(i);
            if (p.endSeconds() > min + slack && p.startSeconds() < max - slack) {
                int index = i;
                Label l = only(labels, "phase", i, where);
                boolean numbered = l.text().equals(String.valueOf(i + 1)) || l.text().isEmpty();
                assertTrue(l.text().equals(p.name()) || numbered && legend.contains(index),
                        where + "phase " + p.name() + " unnamed: " + l + ", legend " + legend);
            }
        }
        for (int i = 0; i < run.disruptions().size(); i++) {
            DisruptionSpan d = DisruptionSpan.of(run.disruptions().get(i));
            if (d.end() > min + slack && d.start() < max - slack) {
                Label l = only(labels, "disruption", i, where);
                String name = d.name() + (d.happened() ? "" : " (not started)");
                assertTrue(l.text().equals(name) || l.text().equals(String.valueOf(i + 1)), where + l);
            }
        }
    }

    private static Label only(List<Label> labels, String kind, int index, String where) {
        List<Label> found = labels.stream().filter(l -> l.kind().equals(kind) && l.indexes().equals(List.of(index)))
                .toList();
        assertEquals(1, found.size(), where + kind + " " + index + " labelled once: " + labels);
        return found.get(0);
    }

    /** A box on the page, in CSS px. */
    private record Box(double left, double top, double right, double bottom) {

        /** Half a pixel: what rounding may make of two boxes that touch. */
        private static final double EPSILON = 0.5;

        static Box of(JsonNode n) {
            return new Box(n.get("left").asDouble(), n.get("top").asDouble(), n.get("right").asDouble(),
                    n.get("bottom").asDouble());
        }

        boolean overlaps(Box o) {
            return left < o.right - EPSILON && o.left < right - EPSILON && top < o.bottom - EPSILON
                    && o.top < bottom - EPSILON;
        }

        boolean within(Box o) {
            return left >= o.left - EPSILON && right <= o.right + EPSILON && top >= o.top - EPSILON
                    && bottom <= o.bottom + EPSILON;
        }
    }

    /** A label above a chart: its kind (phase, disruption, recovery), whose it is, what it says and where. */
    private record Label(String kind, List<Integer> indexes, String text, boolean cut, Box box) {
    }

    private static List<Label> stripLabels(JsonNode chart) {
        List<Label> labels = new ArrayList<>();
        for (JsonNode l : chart.get("labels")) {
            List<Integer> indexes = Stream.of(l.get("index").asText().split(" ")).map(Integer::valueOf).toList();
            labels.add(new Label(l.get("kind").asText(), indexes, l.get("text").asText(), l.get("cut").asBoolean(),
                    Box.of(l.get("box"))));
        }
        return labels;
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> ints = new ArrayList<>();
        array.forEach(n -> ints.add(n.asInt()));
        return ints;
    }

    @Test
    void reportDashboardWritesThePage() throws IOException {
        RunResult run = RunFixture.throughFaults();
        Path dir = tmp.resolve("run");
        ResultFile.write(run, dir.resolve(ResultFile.NAME));

        ReportCommandTest.Execution e = ReportCommandTest.execute("dashboard", dir.toString());
        assertEquals(ExitCode.OK, e.exitCode(), e.err() + e.thrown());
        Path page = dir.toAbsolutePath().resolve(Dashboard.FILE);
        assertEquals("wrote " + page, e.out().strip());
        assertEquals(Dashboard.html(ResultFile.read(dir)), Files.readString(page));

        Files.delete(page);
        e = ReportCommandTest.execute("dashboard", dir.resolve(ResultFile.NAME).toString());
        assertEquals(ExitCode.OK, e.exitCode(), e.err() + e.thrown());
        assertTrue(Files.exists(page), "a result.json path writes beside it");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void reportDashboardOfNoRunIsOneLineAndExitsNonZero() throws IOException {
        Path missing = tmp.resolve("no-such-run");
        ReportCommandTest.Execution e = ReportCommandTest.execute("dashboard", missing.toString());
        assertEquals(ExitCode.BAD_INPUT, e.exitCode());
        assertInstanceOf(BadInputException.class, e.thrown());
        assertTrue(e.thrown().getMessage().contains(missing.toString()), e.thrown().getMessage());
        assertFalse(e.thrown().getMessage().contains("\n"), "one line: " + e.thrown().getMessage());
        assertFalse(Files.exists(missing));

        Path notAResult = tmp.resolve("other");
        Files.createDirectories(notAResult);
        Files.writeString(notAResult.resolve(ResultFile.NAME), "{\"name\": \"not a result\"}");
        e = ReportCommandTest.execute("dashboard", notAResult.toString());
        assertEquals(ExitCode.BAD_INPUT, e.exitCode());
        assertTrue(e.thrown().getMessage().contains("not a Gauntlet result"), e.thrown().getMessage());
        assertFalse(Files.exists(notAResult.resolve(Dashboard.FILE)));
    }

    private static JsonNode data(String html) {
        Matcher m = DATA.matcher(html);
        assertTrue(m.find(), "no inlined data");
        try {
            return JSON.readTree(m.group(1));
        } catch (IOException e) {
            throw new AssertionError("inlined data is not JSON", e);
        }
    }

    private static JsonNode chart(JsonNode data, String id) {
        for (JsonNode chart : data.get("charts")) {
            if (chart.get("id").asText().equals(id)) {
                return chart;
            }
        }
        throw new AssertionError("no chart " + id);
    }

    private static JsonNode seriesNode(JsonNode chart, String label) {
        for (JsonNode s : chart.get("series")) {
            if (s.get("label").asText().equals(label)) {
                return s;
            }
        }
        throw new AssertionError("no series " + label + " in " + labels(chart));
    }

    private static JsonNode series(JsonNode chart, String label) {
        return seriesNode(chart, label).get("values");
    }

    private static List<String> labels(JsonNode chart) {
        List<String> labels = new ArrayList<>();
        chart.get("series").forEach(s -> labels.add(s.get("label").asText()));
        return labels;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

    private static String attribute(String attributes, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(attributes);
        return m.find() ? m.group(1) : null;
    }

    private static String errors(String dom) {
        return HeadlessChromium.errors(dom);
    }

    private static Optional<Path> chromium() {
        return HeadlessChromium.find();
    }

    private String dumpDom(Path chromium, Path page) throws IOException, InterruptedException {
        return HeadlessChromium.dumpDom(chromium, page, tmp);
    }
}

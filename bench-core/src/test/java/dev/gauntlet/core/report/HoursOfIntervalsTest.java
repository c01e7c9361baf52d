package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gauntlet.core.result.InlineIntervals;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 12-hour run at one-second intervals fits: 43,200 synthetic intervals ({@link SyntheticHours}: five operations,
 * an observed latency, five gauges, a latency spike, an outage and a gauge spike) go through what a run does with
 * them ({@link HoursOfIntervals}: downsampled in memory, streamed to the timeline file, the result written, report.md
 * rendered, dashboard.html written from the file) in a JVM whose heap is bounded at {@value #HEAP}, half the 512 MB
 * goal; then the page is loaded in headless Chromium.
 *
 * <p>Asserted: the path completes in that heap, and what the feed keeps is bounded (the second six hours add almost
 * nothing); result.json stays under {@value #RESULT_MIB} MiB and keeps at most {@link InlineIntervals#MOST}
 * intervals (and a few where phases cut them short), the timeline file every one; the page draws every chart with no
 * script error, downsampled (about two points per pixel, not 43,200) yet with the spike's maximum, the outage's zero
 * and the gauge's spike drawn, and zoomed in, every interval. Not asserted, recorded: the heap, the files' sizes and
 * the page's load time, in {@code target/hours-of-intervals.txt} (reports/adversity.md, "Hours, not minutes").
 */
@Tag("long")
class HoursOfIntervalsTest {

    static final String HEAP = "256m";
    static final int RESULT_MIB = 3;
    static final int DASHBOARD_MIB = 16;
    /** What the feed may keep in the heap over its 12 hours, and over its second six. */
    static final long FEED_RETAINS_AT_MOST = 16L << 20;
    static final long SECOND_HALF_RETAINS_AT_MOST = 4L << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static Path dir;
    static Map<String, String> figures;
    /** Read once from the timeline file: its intervals, those whose newOrder p99 is over a second, and that p99. */
    static long read;
    static List<Double> spikeAt = new ArrayList<>();
    static double spikeP99;

    @BeforeAll
    static void feedTwelveHours() throws Exception {
        dir = tmp.resolve("run");
        Path log = tmp.resolve("feed.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx" + HEAP, "-cp", System.getProperty("java.class.path"),
                HoursOfIntervals.class.getName(), dir.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the 12-hour feed did not finish in 10 minutes: " + Files.readString(log));
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), "the 12-hour path did not complete in -Xmx" + HEAP + ":\n" + out);
        figures = new LinkedHashMap<>();
        out.lines().filter(l -> l.matches("\\w+=.*")).forEach(l -> figures.put(l.substring(0, l.indexOf('=')),
                l.substring(l.indexOf('=') + 1)));
        record("heap", "-Xmx" + HEAP);
        Timeline.of(ResultFile.read(dir), dir).forEach(i -> {
            read++;
            IntervalOperation o = i.operations().get("newOrder");
            if (o.p99() > 1000) {
                spikeAt.add(i.t());
                spikeP99 = o.p99();
            }
        });
    }

    @Test
    void whatTheFeedKeepsIsBounded() {
        long before = number("heapBeforeBytes");
        long half = number("heapHalfBytes");
        long end = number("heapEndBytes");
        assertTrue(end - before < FEED_RETAINS_AT_MOST, "12 hours of intervals kept " + (end - before) + " bytes");
        assertTrue(end - half < SECOND_HALF_RETAINS_AT_MOST,
                "the second six hours kept " + (end - half) + " bytes more: it grows with the run");
    }

    @Test
    void resultJsonIsSmallAndTheTimelineFileHoldsEveryInterval() throws IOException {
        assertEquals(SyntheticHours.SECONDS, number("intervals"));
        long bytes = Files.size(dir.resolve(ResultFile.NAME));
        assertTrue(bytes < (long) RESULT_MIB << 20, "result.json is " + bytes + " bytes");
        RunResult run = ResultFile.read(dir);
        assertTrue(run.intervals().size() <= InlineIntervals.MOST + 2 * run.phases().size(),
                run.intervals().size() + " intervals inline");
        assertEquals(SyntheticHours.SECONDS, run.reportingIntervals());
        assertEquals(SyntheticHours.SECONDS, run.intervals().stream().mapToLong(Interval::reportingIntervals).sum(),
                "the inline intervals stand for every reporting interval");
        // The spike is in its bucket: the merged histogram keeps the maximum.
        assertEquals(SyntheticHours.SPIKE_MS, run.intervals().stream().mapToDouble(i -> i.operations()
                .get("newOrder").max()).max().orElseThrow(), SyntheticHours.SPIKE_MS * 1e-3);
        // The outage's five seconds are unavailable, in a bucket of 180.
        assertEquals(SyntheticHours.OUTAGE_SECONDS, run.intervals().stream()
                .mapToDouble(Interval::unavailableSeconds).sum(), 1e-9);

        assertFalse(Timeline.of(run, dir).downsampled());
        assertEquals(SyntheticHours.SECONDS, read);
        assertEquals(List.of(SyntheticHours.end(SyntheticHours.SPIKE_AT - 1)), spikeAt, "the spike, at its second");
        long dashboard = Files.size(dir.resolve(Dashboard.FILE));
        assertTrue(dashboard < (long) DASHBOARD_MIB << 20, "dashboard.html is " + dashboard + " bytes");
        assertTrue(Files.readString(dir.resolve(RunReport.MARKDOWN)).contains("43,200 reporting intervals, charted "
                + "here as the result keeps them: " + run.intervals().size()), "report.md says what it charts");
    }

    /**
     * In headless Chromium: every chart drawn, no script error, downsampled yet with the spike's maximum, the
     * outage's zero and the lag spike drawn; zoomed to two minutes around the spike, every interval drawn. A probe
     * appended to a copy of the page reads what uPlot was given to draw.
     */
    @Test
    void thePageDrawsDownsampledKeepingEverySpikeAndEveryIntervalWhenZoomed() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: the page is not drawn in a browser");
        double spikeAt = SyntheticHours.SPIKE_AT;
        String probe = """
                <script>
                window.addEventListener('load', async function () {
                  const sleep = ms => new Promise(r => setTimeout(r, ms));
                  await sleep(200);
                  const plots = uPlot.sync('gauntlet-run').plots;
                  const chart = id => plots.find(p => p.root.parentElement.id === 'chart-' + id);
                  const extremes = (id, label, min, max) => {
                    const p = chart(id);
                    const s = p.series.findIndex(x => x.label === label);
                    let lo = null, hi = null, n = 0;
                    p.data[0].forEach((x, k) => {
                      if (x >= min && x <= max) {
                        n++;
                        const v = p.data[s][k];
                        if (v != null) {
                          lo = lo == null ? v : Math.min(lo, v);
                          hi = hi == null ? v : Math.max(hi, v);
                        }
                      }
                    });
                    return {lo: lo, hi: hi, n: n};
                  };
                  const all = (id, label) => extremes(id, label, -Infinity, Infinity);
                  const whole = {points: plots.map(p => p.data[0].length),
                    p99: all('latency', 'newOrder p99'), throughput: all('throughput', 'newOrder'),
                    lag: all('gauge-replicationLagBytes', 'replicationLagBytes')};
                  const min = SPIKE - 60, max = SPIKE + 60;
                  plots[0].setScale('x', {min: min, max: max});
                  await sleep(500);
                  const zoomed = {ranges: plots.map(p => [p.scales.x.min, p.scales.x.max]),
                    p99: extremes('latency', 'newOrder p99', min, max),
                    throughput: extremes('throughput', 'payment', min, max)};
                  document.body.dataset.probe = btoa(JSON.stringify({whole: whole, zoomed: zoomed}));
                });
                </script>
                </body>""".replace("SPIKE", String.valueOf(spikeAt));
        Path page = tmp.resolve("probe.html");
        Files.writeString(page, Files.readString(dir.resolve(Dashboard.FILE)).replace("</body>", probe));
        Path work = Files.createDirectories(tmp.resolve("chromium-probe"));
        String dom = HeadlessChromium.dumpDom(chromium.get(), page, work);
        String attributes = HeadlessChromium.bodyAttributes(dom);
        assertFalse(attributes.contains("data-error"), "script error: " + attributes + "\n"
                + HeadlessChromium.errors(dom));
        long charts = Pattern.compile("\\{\"id\":\"").matcher(Files.readString(dir.resolve(Dashboard.FILE)))
                .results().count();
        assertTrue(charts >= 6, charts + " charts in the page's data");
        assertEquals(String.valueOf(charts), attribute(attributes, "data-rendered"), HeadlessChromium.errors(dom));
        assertEquals(String.valueOf(SyntheticHours.SECONDS), attribute(attributes, "data-points"));
        String probed = attribute(attributes, "data-probe");
        assertNotNull(probed, "the probe did not finish: " + attributes);
        JsonNode seen = JSON.readTree(Base64.getDecoder().decode(probed));

        JsonNode whole = seen.get("whole");
        for (JsonNode points : whole.get("points")) {
            assertTrue(points.asInt() > 1000 && points.asInt() <= 2 * 1280 + 4,
                    "downsampled to about two points a pixel: " + whole);
        }
        double spike = DashboardCharts.significant(spikeP99);
        assertEquals(spike, whole.get("p99").get("hi").asDouble(), 0, "the spike's maximum is drawn: " + whole);
        assertEquals(0.0, whole.get("throughput").get("lo").asDouble(), 0, "the outage's zero is drawn: " + whole);
        assertEquals(SyntheticHours.LAG_SPIKE_BYTES / (double) (1 << 20), whole.get("lag").get("hi").asDouble(), 0,
                "the lag spike is drawn: " + whole);

        JsonNode zoomed = seen.get("zoomed");
        for (JsonNode range : zoomed.get("ranges")) {
            assertEquals(spikeAt - 60, range.get(0).asDouble(), 1e-9, "every chart zoomed: " + zoomed);
            assertEquals(spikeAt + 60, range.get(1).asDouble(), 1e-9, "every chart zoomed: " + zoomed);
        }
        long inWindow = 0;
        for (int i = 0; i < SyntheticHours.SECONDS; i++) {
            double x = Math.round(SyntheticHours.end(i) * 1000) / 1000.0;
            if (x >= spikeAt - 60 && x <= spikeAt + 60) {
                inWindow++;
            }
        }
        assertEquals(inWindow, zoomed.get("throughput").get("n").asLong(), "every interval drawn once zoomed");
        assertEquals(spike, zoomed.get("p99").get("hi").asDouble(), 0, "and the spike with them");
    }

    /**
     * The page's load time, in real time (no virtual time): from navigation until every chart has drawn, as the
     * page records it. Recorded, not asserted; a test asserts behaviour, never speed.
     */
    @Test
    void thePagesLoadTimeIsRecorded() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: no load time");
        List<String> times = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path work = Files.createDirectories(tmp.resolve("chromium-load-" + i));
            String dom = HeadlessChromium.dumpDomInRealTime(chromium.get(), dir.resolve(Dashboard.FILE), work);
            String attributes = HeadlessChromium.bodyAttributes(dom);
            assertFalse(attributes.contains("data-error"), "script error: " + attributes);
            String loadMs = attribute(attributes, "data-load-ms");
            assertNotNull(loadMs, "the page recorded no load time: " + attributes);
            times.add(loadMs);
        }
        record("pageLoadMs", String.join(" ", times));
    }

    private static long number(String name) {
        String value = figures.get(name);
        assertNotNull(value, "the feed did not say " + name + ": " + figures);
        return Long.parseLong(value);
    }

    /** Adds a figure and writes them all to target/hours-of-intervals.txt. */
    private static synchronized void record(String name, String value) throws IOException {
        figures.put(name, value);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "# HoursOfIntervalsTest: 12 hours at 1 s (%d intervals), %s, %d vCPU%n", SyntheticHours.SECONDS,
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors()));
        figures.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Path out = Files.createDirectories(Path.of("target")).resolve("hours-of-intervals.txt");
        Files.writeString(out, text, StandardCharsets.UTF_8);
    }

    private static String attribute(String attributes, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(attributes);
        return m.find() ? m.group(1) : null;
    }
}

package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capacity search's curve: a PNG where fonts allow, and a page a browser draws. */
class CapacityChartTest {

    @TempDir
    Path tmp;

    private static final List<CapacityChart.Point> STEPS = List.of(
            new CapacityChart.Point(1000, true, Map.of("p99 <= 50ms", 4.0)),
            new CapacityChart.Point(2000, true, Map.of("p99 <= 50ms", 9.0)),
            new CapacityChart.Point(2400, false, Map.of("p99 <= 50ms", 310.0)),
            new CapacityChart.Point(2200, true, Map.of("p99 <= 50ms", 31.0)));

    @Test
    void theCurveIsDrawnInTheBrowserWithItsBudget() throws Exception {
        Map<String, byte[]> files = CapacityChart.render(STEPS, Map.of("p99 <= 50ms", 50.0), 2200, "ops/s",
                "highest rate meeting the objectives: 2,200 ops/s");
        assertEquals(ChartFonts.missing().isEmpty(), files.containsKey(CapacityChart.PNG), files.keySet().toString());
        String html = new String(files.get(CapacityChart.HTML), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(html.contains("highest rate meeting the objectives: 2,200 ops/s"), "the answer heads the page");
        assertTrue(html.contains("\"x\":[1000.0,2000.0,2200.0,2400.0]"), "the steps in order of rate: " + html);
        java.util.Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no chromium installed: capacity.html is not drawn in a browser");
        Path page = tmp.resolve(CapacityChart.HTML);
        Files.write(page, files.get(CapacityChart.HTML));
        String dom = HeadlessChromium.dumpDom(chromium.get(), page, tmp);
        String body = HeadlessChromium.bodyAttributes(dom);
        assertFalse(body.contains("data-error"), body + " " + HeadlessChromium.errors(dom));
        assertTrue(body.contains("data-rendered=\"4\""), "every step plotted: " + body);
        assertTrue(dom.contains("<canvas"), "uPlot draws on a canvas");
    }
}

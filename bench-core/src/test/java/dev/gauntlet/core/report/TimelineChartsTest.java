package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.RunResult;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Charts stay readable however many operations a workload has: no legend label cut off at the image's edges. */
class TimelineChartsTest {

    private static final List<String> TPCC = List.of("newOrder", "payment", "orderStatus", "delivery", "stockLevel");

    /** A run with the five TPC-C operations: ten latency series (p95 and p99 each), as the default job has. */
    private static RunResult fiveOperations() {
        RunFixture run = new RunFixture();
        for (String op : TPCC) {
            run.operation(op, RunFixture.millis(100, 5.0, 10.0));
        }
        for (int i = 1; i <= 6; i++) {
            Map<String, IntervalOperation> ops = new LinkedHashMap<>();
            for (String op : TPCC) {
                ops.put(op, RunFixture.intervalOperation(RunFixture.millis(10, 4.0 * i, 9.0 * i), 10, 0));
            }
            run.interval(new Interval(10.0 * i, 10, "measure", ops, 0, 0));
        }
        return run.build();
    }

    @Test
    void noLegendLabelIsCutOffAtTheEdges() throws IOException {
        assertNoInkAtTheEdges(TimelineCharts.render(fiveOperations()));
    }

    /** Disruptions are red bands named inside the plot, their names never running off the image. */
    @Test
    void disruptionsAreMarkedInsideThePlot() throws IOException {
        RunResult run = RunFixture.throughFaults();
        Map<String, byte[]> charts = TimelineCharts.render(run);
        assertNoInkAtTheEdges(charts);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(charts.get(TimelineCharts.THROUGHPUT)));
        assertTrue(reddish(image), "no disruption band drawn");
        RunResult undisrupted = run.toBuilder().disruptions(List.of()).build();
        assertFalse(reddish(ImageIO.read(new ByteArrayInputStream(
                TimelineCharts.render(undisrupted).get(TimelineCharts.THROUGHPUT)))), "red without a disruption");
    }

    /** Pixels halfway up the chart tinted red as a disruption's band is: redder than green, green near blue. */
    private static boolean reddish(BufferedImage image) {
        for (int x = 0; x < image.getWidth(); x++) {
            int rgb = image.getRGB(x, image.getHeight() / 2);
            int r = rgb >> 16 & 0xff;
            int g = rgb >> 8 & 0xff;
            int b = rgb & 0xff;
            if (r > g + 25 && Math.abs(g - b) < 20) {
                return true;
            }
        }
        return false;
    }

    private static void assertNoInkAtTheEdges(Map<String, byte[]> charts) throws IOException {
        for (Map.Entry<String, byte[]> chart : charts.entrySet()) {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(chart.getValue()));
            // A label cut off by the image's edge leaves ink in its outermost columns; a legend that fits leaves
            // them as background, like every other edge of the chart.
            for (int x : new int[] {0, 1, image.getWidth() - 2, image.getWidth() - 1}) {
                for (int y = 0; y < image.getHeight(); y++) {
                    int rgb = image.getRGB(x, y) & 0xffffff;
                    assertTrue(rgb == 0xffffff, chart.getKey() + ": ink at the edge, x=" + x + " y=" + y
                            + " (0x" + Integer.toHexString(rgb) + "): a legend label is cut off");
                }
            }
        }
    }
}

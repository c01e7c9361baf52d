package dev.gauntlet.script.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.Timing;
import dev.gauntlet.script.workload.ScriptWorkload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** pgbench 15's -P line, field for field, from an interval of the run. */
class PgbenchProgressTest {

    private static Histogram millis(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v * 1_000_000);
        }
        return h;
    }

    private static Interval interval(Map<String, Timing> observations) {
        Histogram a = millis(1, 3);
        Histogram b = millis(2, 2);
        return new Interval(5.0, 2.0, "measure", Map.of(
                "a", new IntervalOperation(2, 1, 0, 0, 0, 0, 1, 0, HistogramCodec.encode(a)),
                "b", new IntervalOperation(2, 1, 0, 0, 0, 0, 0, 0, HistogramCodec.encode(b))),
                1, 0, observations, Map.of());
    }

    @Test
    void tpsLatencyAndItsDeviationOverEveryScriptThenFailures() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PgbenchProgress(new PrintStream(out, true, StandardCharsets.UTF_8), false, false, 1)
                .onInterval(interval(Map.of()), Map.of(), 5.0);
        // 4 transactions in 2 s; latencies 1, 3, 2, 2 ms: mean 2, deviation sqrt(0.5)
        assertEquals("progress: 5.0 s, 2.0 tps, lat 2.000 ms stddev 0.707, 1 failed\n",
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void lagUnderARateAndRetriedTransactionsAsTheyEndedWithTriesAllowed() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PgbenchProgress p = new PgbenchProgress(new PrintStream(out, true, StandardCharsets.UTF_8), true, true, 3);
        p.ended(0, "a", 0, 0, 1, null, 3);
        p.ended(1, "a", 0, 0, 1, null, 1);
        p.onInterval(interval(Map.of(ScriptWorkload.SCHEDULE_LAG, Timing.of(millis(4)))), Map.of(), 5.0);
        String line = out.toString(StandardCharsets.UTF_8);
        assertTrue(line.matches("progress: \\d+\\.\\d{3} s, 2\\.0 tps, lat 2\\.\\d{3} ms stddev 0\\.\\d{3}, 1 failed, "
                + "lag 4\\.\\d{3} ms, 1 retried, 2 retries\n"), line);
    }
}

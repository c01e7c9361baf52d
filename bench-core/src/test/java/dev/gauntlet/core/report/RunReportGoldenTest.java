package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.Interval;
import dev.gauntlet.core.result.IntervalOperation;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.Timing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.md of a fixed run against a golden file. After an intended change to the report, regenerate with
 * {@code mvn -pl bench-core test -Dtest=RunReportGoldenTest -Dgolden.update=true} and review the diff.
 */
class RunReportGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/run-report.md");
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /** Three failed operations (timeouts near 5 s) and two that were due but never ran, waiting at least 1-2 s. */
    private static dev.gauntlet.core.result.OperationResult withFailuresAndUnissued(
            dev.gauntlet.core.result.OperationResult op) {
        return new dev.gauntlet.core.result.OperationResult(op.name(), op.count(), op.errors(), op.retries(),
                op.opsPerSecond(), op.latencyMs(), op.histogram(), op.serviceTime(), op.poolWait(),
                Timing.of(RunFixture.millis(1, 5001.0, 5002.5, 5010.0)), 2, Timing.of(RunFixture.millis(1, 1000.0, 2000.0)),
                4, 0, op.counters());
    }

    /** Everything a report can show, with fixed values so the Markdown is byte-for-byte stable. */
    static RunResult fixedRun() {
        Histogram newOrder = RunFixture.millis(100, 2.5, 3.1, 4.0, 5.2, 8.8, 12.0, 40.0);
        newOrder.recordValue(250_000_000L);
        Histogram payment = RunFixture.millis(150, 1.2, 1.9, 2.4, 3.3, 6.0);
        Histogram newOrderService = RunFixture.millis(100, 2.0, 2.9, 3.5, 4.8, 8.0, 10.0, 30.0);
        Histogram paymentPoolWait = RunFixture.millis(150, 0.01, 0.02, 0.05, 0.3, 1.5);
        RunFixture run = new RunFixture().variant("synchronous_commit=off").clients(8)
                .environment(new Environment("OpenJDK 17.0.15", "Linux 6.1.0 amd64", 2, 512L << 20, "bench-1",
                        "PostgreSQL 17.6", "jdbc:postgresql://bench:secret@localhost:5432/tpcc?password=hunter2"))
                .operation(withFailuresAndUnissued(
                        RunFixture.operation("newOrder", newOrder, 60.0, 3, 7, Timing.of(newOrderService), null)))
                .operation(RunFixture.operation("payment", payment, 60.0, 1, 0, null, Timing.of(paymentPoolWait)))
                .metric("tpmC", 701.0).metric("efficiencyPercent", 1362.83)
                .observation("endToEnd", RunFixture.millis(50, 12.0, 15.5, 80.0)).gauge("lagMessages", 12, 0, 340)
                .phase("warmup", 0, 10).phase("measure", 10, 70)
                .error("retryable", "40001", 3, "ERROR: could not serialize access | due to\nconcurrent update")
                .error("constraint", "23505", 1, null)
                .check(Check.pass("3.3.2.1 w_ytd = sum(d_ytd)", ""))
                .check(Check.fail("3.3.2.2 d_next_o_id - 1 = max(o_id)", "district 3: 3001 vs 3002"))
                .check(Check.skip("9.2.2 NewOrder rollbacks 0.9-1.1%", "too few transactions (701)"));
        for (int i = 1; i <= 7; i++) {
            Histogram no = RunFixture.millis(10 + i, 2.0 * i, 3.0 * i);
            Histogram pay = RunFixture.millis(20, 1.0 + i / 10.0);
            run.interval(new Interval(10.0 * i, 10.0, i == 1 ? "warmup" : "measure",
                    Map.of("newOrder", RunFixture.intervalOperation(no, 10.0, i == 4 ? 3 : 0),
                            "payment", RunFixture.intervalOperation(pay, 10.0, 0)), i == 4 ? 3 : 0, 0));
        }
        return run.build();
    }

    @Test
    void markdownMatchesGoldenFile() throws IOException {
        String markdown = RunReport.markdown(fixedRun());
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, markdown, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(GOLDEN), "no golden file; run once with -Dgolden.update=true");
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), markdown,
                "report.md changed; if intended, regenerate with -Dgolden.update=true and review the diff");
    }

    @Test
    void markdownHasTheFixedOperationColumnsAndNoSecrets() {
        String md = RunReport.markdown(fixedRun());
        String squeezed = md.replaceAll(" +", " ");
        assertTrue(squeezed.contains("\n| elapsed | op | clients | ops | ops/s | mean | p50 | p90 | p95 | p99 | max |\n"),
                md);
        // 701 newOrders in 60 s is 11.68/s: a real division, never 11 or 0.
        assertTrue(squeezed.contains("| 60.0s | newOrder | 8 | 701 | 11.68 |"), md);
        assertFalse(md.contains("hunter2"), md);
        assertFalse(md.contains("secret"), md);
        assertTrue(md.contains("measured from each operation's intended start"), md);
        assertTrue(md.contains("**Overall: FAIL**"), md);
        assertTrue(squeezed.contains("could not serialize access \\| due to concurrent update"), md);
    }

    @Test
    void writesReportAndChartsAsPngFiles(@TempDir Path dir) throws IOException {
        RunResult run = fixedRun();
        RunReport.write(run, dir);
        assertEquals(RunReport.markdown(run), Files.readString(dir.resolve(RunReport.MARKDOWN)));
        for (String chart : new String[] {"throughput.png", "latency.png"}) {
            Path png = dir.resolve(chart);
            assertTrue(Files.size(png) > 1000, chart + " is too small to be a chart");
            byte[] head = Arrays.copyOf(Files.readAllBytes(png), PNG_SIGNATURE.length);
            assertArrayEquals(PNG_SIGNATURE, head, chart + " is not a PNG");
            assertTrue(RunReport.markdown(run).contains("](" + chart + ")"), "report.md must link " + chart);
        }
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count(), "no temporary files may be left behind");
        }
    }

    @Test
    void runWithoutIntervalsHasNoChartsAndSaysSo(@TempDir Path dir) throws IOException {
        RunResult run = new RunFixture().operation("get", RunFixture.millis(1, 0.004, 0.006)).build();
        RunReport.write(run, dir.resolve("run"));
        String md = Files.readString(dir.resolve("run").resolve(RunReport.MARKDOWN));
        assertTrue(md.contains("No reporting intervals"), md);
        assertFalse(Files.exists(dir.resolve("run").resolve("throughput.png")));
        // Sub-millisecond stores still show a figure, not 0.00.
        assertTrue(md.contains("0.004"), md);
    }

    @Test
    void idleIntervalsStillRender(@TempDir Path dir) throws IOException {
        Histogram empty = RunFixture.histogram();
        RunResult run = new RunFixture().operation("get", RunFixture.millis(1, 1.0))
                .interval(new Interval(10, 10, "measure", Map.of("get", RunFixture.intervalOperation(empty, 10, 0)),
                        0, 0))
                .build();
        RunReport.write(run, dir);
        assertTrue(Files.size(dir.resolve("throughput.png")) > 0);
        IntervalOperation op = run.intervals().get(0).operations().get("get");
        assertEquals(0, op.count());
    }

    @Test
    void disruptionsHaveASectionWithTheirRecovery() {
        String md = RunReport.markdown(RunFixture.throughFaults());
        String squeezed = md.replaceAll(" +", " ");
        assertTrue(md.contains("\n## Disruptions\n"), md);
        assertTrue(squeezed.contains("\n| Disruption | Planned | Started | Ended | Outcome | Recovery | Clients saw | Notes |\n"), md);
        assertTrue(squeezed.contains("| kill-primary | 30.0s-32.0s | 30.1s | 32.0s | done | recovered in 12.0s "
                + "| — | pg_ctl stop -m immediate |"), md);
        assertTrue(squeezed.contains("| 70.0s-80.0s | 70.0s | 80.0s | done | not recovered |"), md);
        assertTrue(md.indexOf("## Disruptions") > md.indexOf("## Phases")
                && md.indexOf("## Disruptions") < md.indexOf("## Operations"), "after the phases they fall in");
        assertFalse(RunReport.markdown(fixedRun()).contains("Disruptions"), "no section for a run without any");
    }
}

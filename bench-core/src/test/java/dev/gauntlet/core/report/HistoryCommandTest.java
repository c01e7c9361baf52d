package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.history.Change;
import dev.gauntlet.core.history.HistoryRun;
import dev.gauntlet.core.history.RunHistory;
import dev.gauntlet.core.report.ReportCommandTest.Execution;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report history} end to end on result files: a series with a known step is found at the run where it was
 * made and nowhere else, the gate fails on it only while it is recent, labels order but do not split, unlike runs
 * are other series, and bad input is one line.
 */
class HistoryCommandTest {

    @TempDir
    Path tmp;

    /** Run {@code i} of a series whose newOrder latency rises 40% and tpmC falls 30% from run {@code stepAt} on. */
    private static RunResult run(int i, int stepAt, int clients, Random noise) {
        boolean after = i >= stepAt;
        double ms = (after ? 14 : 10) * (1 + 0.02 * noise.nextGaussian());
        double tpmC = (after ? 7_000 : 10_000) * (1 + 0.02 * noise.nextGaussian());
        Histogram h = RunFixture.histogram();
        h.recordValueWithCount(Math.round(ms * 1_000_000), 6_000);
        Instant start = Instant.parse("2026-11-01T00:00:00Z").plusSeconds(3600L * i);
        return new RunFixture().clients(clients).parameter("seed", 1000 + i).operation("newOrder", h)
                .metric("tpmC", tpmC).startedAt(start.toString(), start.plusSeconds(60).toString()).build()
                .toBuilder().labels(Map.of("release", "25." + i)).build();
    }

    private List<Path> write(Path root, List<RunResult> runs) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Path dir = Files.createDirectories(root.resolve(String.format("run-%02d", i + 1)));
            ResultFile.write(runs.get(i), dir.resolve(ResultFile.NAME));
            dirs.add(dir);
        }
        return dirs;
    }

    private static List<RunResult> series(int runs, int stepAt, int clients, long seed) {
        Random noise = new Random(seed);
        List<RunResult> out = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            out.add(run(i, stepAt, clients, noise));
        }
        return out;
    }

    @Test
    void theStepIsFoundAtTheRunWhereItWasMadeAndNowhereElse() throws IOException {
        write(tmp.resolve("runs"), series(16, 9, 8, 7));
        Path out = tmp.resolve("history");
        Execution e = ReportCommandTest.execute("history", tmp.resolve("runs").toString(), "--out", out.toString());
        assertEquals(ExitCode.OK, e.exitCode(), e.out() + e.err());
        String md = Files.readString(out.resolve(HistoryReport.MARKDOWN));
        // tpmC down and newOrder p50/p95/p99 up; throughput (the same count in the same time) and errors flat.
        assertTrue(md.contains("| #9 2026-11-01 09:00 release=25.9"), md);
        assertEquals(4, count(md, "| #9 2026"), "tpmC and newOrder p50/p95/p99 change at run 9: " + md);
        assertFalse(md.matches("(?s).*\\| #(?!9 )\\d+ 2026.*"), "no change point at any other run: " + md);
        assertTrue(md.contains("-30.") || md.contains("-29.") || md.contains("-31."), md);
        assertTrue(md.contains("worse"), md);
        assertTrue(Files.readString(out.resolve(HistoryPage.FILE)).contains("\"title\":\"tpmC\""));
        assertTrue(e.out().contains("16 runs in 1 series; 4 change point(s)"), e.out());
    }

    @Test
    void theGateFailsOnARecentRegressionAndNamesItAndNotOnAnOldOne() throws IOException {
        write(tmp.resolve("runs"), series(14, 10, 8, 3));
        Execution recent = ReportCommandTest.execute("history", tmp.resolve("runs").toString(), "--out",
                tmp.resolve("h").toString(), "--fail-on-regression");
        assertEquals(ExitCode.FAILED, recent.exitCode(), recent.out() + recent.err());
        assertTrue(recent.err().contains("regression: tpcc [baseline]: tpmC"), recent.err());
        assertTrue(recent.err().contains("from run 10 of 14"), recent.err());
        // The same step, with nine more runs after it: history, not a regression of the last five runs.
        write(tmp.resolve("longer"), series(23, 10, 8, 3));
        Execution old = ReportCommandTest.execute("history", tmp.resolve("longer").toString(), "--out",
                tmp.resolve("h2").toString(), "--fail-on-regression", "--recent", "5");
        assertEquals(ExitCode.OK, old.exitCode(), old.out() + old.err());
        assertTrue(old.out().contains("no worse change point in the last 5 runs"), old.out());
        assertTrue(old.out().contains("tpmC"), "the old change is still reported: " + old.out());
    }

    @Test
    void labelsOrderTheSeriesWithoutSplittingItAndOtherClientsAreAnotherSeries() {
        List<RunResult> runs = new ArrayList<>(series(12, 7, 8, 11));
        // Started in reverse order of release: --by release must order by the label, 25.9 before 25.10.
        List<HistoryRun> given = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunResult r = runs.get(i);
            Instant start = Instant.parse("2026-12-01T00:00:00Z").minusSeconds(3600L * i);
            given.add(new HistoryRun(r.toBuilder().startedAt(start.toString()).build(), "run-" + (i + 1)));
        }
        given.addAll(series(8, 100, 16, 5).stream().map(r -> new HistoryRun(r, "other")).toList());
        RunHistory byRelease = RunHistory.of(given, new RunHistory.Settings("release",
                dev.gauntlet.core.history.EDivisive.Options.defaults(), 0));
        assertEquals(2, byRelease.series().size(), "clients 8 and clients 16");
        List<HistoryRun> ordered = byRelease.series().stream().filter(s -> s.runs().size() == 12).findFirst()
                .orElseThrow().runs();
        assertEquals(List.of("run-1", "run-2", "run-3", "run-4", "run-5", "run-6", "run-7", "run-8", "run-9",
                "run-10", "run-11", "run-12"), ordered.stream().map(HistoryRun::source).toList());
        assertTrue(byRelease.changes().stream().filter(c -> c.figure().name().equals("tpmC"))
                .allMatch(c -> c.position() == 6 && c.verdict() == Change.Verdict.WORSE), byRelease.changes()::toString);
        // By start time the same runs are newest-release-first: the step reads as an improvement at release 25.6.
        RunHistory byTime = RunHistory.of(given, RunHistory.Settings.defaults());
        assertTrue(byTime.changes().stream().filter(c -> c.figure().name().equals("tpmC"))
                .allMatch(c -> c.verdict() == Change.Verdict.BETTER && c.run().source().equals("run-6")),
                byTime.changes()::toString);
        assertTrue(byTime.changes().stream().noneMatch(c -> c.run().source().equals("other")));
    }

    @Test
    void minMagnitudeHidesSmallChanges() {
        List<HistoryRun> runs = series(16, 9, 8, 7).stream().map(r -> new HistoryRun(r, "r")).toList();
        RunHistory all = RunHistory.of(runs, RunHistory.Settings.defaults());
        RunHistory large = RunHistory.of(runs, new RunHistory.Settings(null,
                dev.gauntlet.core.history.EDivisive.Options.defaults(), 35));
        assertEquals(4, all.changes().size(), all.changes()::toString);
        assertEquals(3, large.changes().size(), "the -30% tpmC change is under 35%; the +40% latencies are not");
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws IOException {
        Execution none = ReportCommandTest.execute("history", "--out", tmp.toString());
        assertEquals(ExitCode.BAD_INPUT, none.exitCode());
        assertTrue(none.thrown().getMessage().contains("give directories of results, --store URL, or both"));
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Execution nothing = ReportCommandTest.execute("history", empty.toString(), "--out", tmp.toString());
        assertEquals(ExitCode.BAD_INPUT, nothing.exitCode());
        assertInstanceOf(BadInputException.class, nothing.thrown());
        assertTrue(nothing.thrown().getMessage().startsWith("no results found in "), nothing.thrown().getMessage());
        Execution missing = ReportCommandTest.execute("history", tmp.resolve("nope").toString());
        assertTrue(missing.thrown().getMessage().endsWith("no such file or directory"));
        Execution p = ReportCommandTest.execute("history", tmp.toString(), "--p-value", "2");
        assertEquals(ExitCode.BAD_INPUT, p.exitCode());
        assertFalse(Files.exists(tmp.resolve(HistoryReport.MARKDOWN)), "nothing written on bad input");
        // A broken result among good ones is skipped with its reason; the rest still make a history.
        write(tmp.resolve("runs"), series(8, 100, 8, 1));
        Files.writeString(tmp.resolve("runs/run-03/result.json"), "{ not json");
        Execution skipped = ReportCommandTest.execute("history", tmp.resolve("runs").toString(), "--out",
                tmp.resolve("h").toString());
        assertEquals(ExitCode.OK, skipped.exitCode());
        assertTrue(skipped.out().contains("skipped ") && skipped.out().contains("run-03"), skipped.out());
        assertTrue(skipped.out().contains("7 runs in 1 series"), skipped.out());
    }

    @Test
    void headlessChromiumDrawsEveryFigureOfEverySeries() throws Exception {
        java.util.Optional<Path> chromium = HeadlessChromium.find();
        org.junit.jupiter.api.Assumptions.assumeTrue(chromium.isPresent(),
                "no chromium installed: history.html is not drawn in a browser");
        List<HistoryRun> runs = new ArrayList<>(series(12, 7, 8, 2).stream().map(r -> new HistoryRun(r, "a")).toList());
        runs.addAll(series(9, 100, 16, 4).stream().map(r -> new HistoryRun(r, "b")).toList());
        RunHistory history = RunHistory.of(runs, RunHistory.Settings.defaults());
        Path page = tmp.resolve(HistoryPage.FILE);
        Files.writeString(page, HistoryPage.html(history));
        String dom = HeadlessChromium.dumpDom(chromium.get(), page, tmp);
        String body = HeadlessChromium.bodyAttributes(dom);
        assertFalse(body.contains("data-error"), body + " " + HeadlessChromium.errors(dom));
        int figures = history.series().stream().mapToInt(s -> s.lines().size()).sum();
        assertTrue(body.contains("data-rendered=\"" + figures + "\""), figures + " charts: " + body);
        assertTrue(body.contains("data-runs=\"21\""), body);
        assertEquals(figures, count(dom, "<canvas"), "uPlot draws each chart on a canvas");
        assertTrue(dom.contains("href=\"#chart-"), "the change table links to the charts");
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}

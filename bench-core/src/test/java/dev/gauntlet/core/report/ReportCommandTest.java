package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.ReportCommand;
import dev.gauntlet.core.result.HistogramCodec;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The report subcommands end to end through picocli, on result files in a temporary directory. */
class ReportCommandTest {

    @TempDir
    Path tmp;

    private Path dirA;
    private Path dirB;

    /** What one command line did: its exit code, what it printed, and the exception the top-level CLI would map. */
    record Execution(int exitCode, String out, String err, Exception thrown) {
    }

    static Execution execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicReference<Exception> thrown = new AtomicReference<>();
        CommandLine cmd = new CommandLine(new ReportCommand());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        // Stands in for the top-level CLI: bad input is exit 2 with its one-line message.
        cmd.setExecutionExceptionHandler((ex, line, parsed) -> {
            thrown.set(ex);
            return ex instanceof BadInputException ? ExitCode.BAD_INPUT : ExitCode.FAILED;
        });
        int code = cmd.execute(args);
        return new Execution(code, out.toString(), err.toString(), thrown.get());
    }

    private static RunResult run(String variant, long ops, double ms) {
        Histogram h = RunFixture.histogram();
        h.recordValueWithCount(Math.round(ms * 1_000_000), ops);
        Histogram interval = RunFixture.histogram();
        interval.recordValueWithCount(Math.round(ms * 1_000_000), ops / 6);
        RunFixture f = new RunFixture().variant(variant).operation("newOrder", h).metric("tpmC", ops)
                .observation("endToEnd", RunFixture.millis((int) (ops / 10), ms * 3));
        for (int i = 1; i <= 6; i++) {
            f.interval(new dev.gauntlet.core.result.Interval(10.0 * i, 10, "measure",
                    java.util.Map.of("newOrder", RunFixture.intervalOperation(interval, 10, 0)), 0, 0));
        }
        return f.build();
    }

    @BeforeEach
    void writeTwoRuns() throws IOException {
        dirA = tmp.resolve("run-a");
        dirB = tmp.resolve("run-b");
        ResultFile.write(run("sync=on", 60_000, 4.0), dirA.resolve(ResultFile.NAME));
        ResultFile.write(run("sync=off", 90_000, 2.0), dirB.resolve(ResultFile.NAME));
    }

    private static void assertBadInputNaming(Execution e, Path file) {
        assertEquals(ExitCode.BAD_INPUT, e.exitCode(), e.err());
        assertInstanceOf(BadInputException.class, e.thrown());
        assertTrue(e.thrown().getMessage().contains(file.toString()), e.thrown().getMessage());
        assertFalse(e.thrown().getMessage().contains("\n"), "one line: " + e.thrown().getMessage());
    }

    @Test
    void renderRebuildsReportAndChartsFromResultJsonAlone() throws IOException {
        Execution e = execute("render", dirA.toString());
        assertEquals(0, e.exitCode(), e.err());
        assertEquals(RunReport.markdown(ResultFile.read(dirA)), Files.readString(dirA.resolve("report.md")));
        assertTrue(Files.size(dirA.resolve("throughput.png")) > 0);
        assertTrue(Files.size(dirA.resolve("latency.png")) > 0);
        assertTrue(e.out().contains("report.md"), e.out());
    }

    @Test
    void comparePrintsMarkdownAndWritesItToOut() throws IOException {
        Path out = tmp.resolve("reports/compare.md");
        Execution e = execute("compare", dirA.toString(), dirB.resolve("result.json").toString(), "--out",
                out.toString(), "--threshold", "10");
        assertEquals(0, e.exitCode(), e.err());
        assertTrue(e.out().lines().anyMatch(l -> l.replaceAll("\\s+", " ")
                .equals("| Metric | sync=on | sync=off | Change | 95% CI | Winner |")), e.out());
        assertTrue(e.out().contains("`sync=off` measured 50.0% higher throughput"), e.out());
        assertTrue(e.out().contains("one below the 10% threshold included"), e.out());
        assertEquals(e.out(), Files.readString(out));
    }

    @Test
    void mergeWritesResultReportAndCharts() throws IOException {
        Path out = tmp.resolve("merged");
        Execution e = execute("merge", dirA.toString(), dirB.toString(), "--out", out.toString());
        // Different variants are not processes of one run.
        assertInstanceOf(dev.gauntlet.core.result.ResultFormatException.class, e.thrown());
        assertFalse(Files.exists(out));

        Path dirC = tmp.resolve("run-c");
        ResultFile.write(run("sync=on", 30_000, 8.0), dirC.resolve(ResultFile.NAME));
        e = execute("merge", dirA.toString(), dirC.toString(), "--out", out.toString());
        assertEquals(0, e.exitCode(), e.err() + e.thrown());
        RunResult merged = ResultFile.read(out);
        assertEquals(90_000, merged.totalCount());
        Histogram h = HistogramCodec.decode(merged.operation("newOrder").orElseThrow().histogram());
        assertEquals(90_000, h.getTotalCount());
        assertEquals(60_000.0 / 90_000 * 100, h.getPercentileAtOrBelowValue(5_000_000), 1e-9);
        // Observations from the two result files merge exactly too: 6,000 at 12 ms and 3,000 at 24 ms.
        Histogram e2e = HistogramCodec.decode(merged.observations().get("endToEnd").histogram());
        assertEquals(9_000, e2e.getTotalCount());
        assertEquals(6_000.0 / 9_000 * 100, e2e.getPercentileAtOrBelowValue(13_000_000), 1e-9);
        assertEquals(List.of("dashboard.html", "latency.png", "report.md", "result.json", "throughput.png",
                "timeline.jsonl.gz"), list(out));
        assertTrue(Files.readString(out.resolve("report.md")).contains("| mergedFrom "));
        assertEquals(List.of("merged", "run-a", "run-b", "run-c"), list(tmp), "no staged timeline left behind");
        assertEquals(dev.gauntlet.core.result.TimelineFile.NAME, merged.fullTimeline().file());
        assertEquals(merged.fullTimeline().intervals(), dev.gauntlet.core.result.Timeline.of(merged, out).size());
    }

    @Test
    void corruptForeignAndNewerFilesAreBadInputNamingTheFile() throws IOException {
        Path corrupt = tmp.resolve("corrupt/result.json");
        Files.createDirectories(corrupt.getParent());
        Files.writeString(corrupt, "{\"schemaVersion\": 1, \"operations\": [");
        Path foreign = tmp.resolve("foreign.json");
        Files.writeString(foreign, "{\"name\": \"not a result\"}");
        Path newer = tmp.resolve("newer/result.json");
        Files.createDirectories(newer.getParent());
        Files.writeString(newer, Files.readString(dirA.resolve(ResultFile.NAME))
                .replaceFirst("\"schemaVersion\" : \\d+", "\"schemaVersion\" : 99"));
        Path badHistogram = tmp.resolve("bad-histogram/result.json");
        Files.createDirectories(badHistogram.getParent());
        String json = Files.readString(dirA.resolve(ResultFile.NAME));
        Files.writeString(badHistogram, json.replaceFirst("\"histogram\" : \"[^\"]+\"", "\"histogram\" : \"AAAA\""));
        Path missing = tmp.resolve("missing");

        for (Path bad : List.of(corrupt, foreign, newer, badHistogram, missing.resolve(ResultFile.NAME))) {
            Path given = bad.equals(missing.resolve(ResultFile.NAME)) ? missing : bad;
            assertBadInputNaming(execute("compare", dirA.toString(), given.toString()), given);
            Path out = tmp.resolve("out-" + bad.getParent().getFileName());
            assertBadInputNaming(execute("merge", dirA.toString(), given.toString(), "--out", out.toString()), given);
            assertFalse(Files.exists(out), "nothing written for a bad input");
        }
        assertTrue(execute("compare", dirA.toString(), newer.toString()).thrown().getMessage()
                .contains("schemaVersion 99"));
    }

    @Test
    void unwritableOutputIsBadInputAndLeavesNothing() throws IOException {
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        Execution e = execute("merge", dirA.toString(), "--out", file.resolve("merged").toString());
        assertInstanceOf(BadInputException.class, e.thrown());
        assertTrue(e.thrown().getMessage().startsWith("cannot write"), e.thrown().getMessage());
        e = execute("compare", dirA.toString(), dirB.toString(), "--out", file.resolve("cmp.md").toString());
        assertInstanceOf(BadInputException.class, e.thrown());
        assertEquals("", e.out(), "nothing printed when the output could not be written");
        assertEquals(List.of("a-file", "run-a", "run-b"), list(tmp));
        assertEquals(List.of("result.json"), list(dirA));
    }

    @Test
    void mergeRefusesToOverwriteAnInput() {
        Execution e = execute("merge", dirA.toString(), dirB.toString(), "--out", dirA.toString());
        assertInstanceOf(BadInputException.class, e.thrown());
        assertTrue(e.thrown().getMessage().contains("is one of the inputs"), e.thrown().getMessage());
        e = execute("merge", dirA.toString(), dirA.resolve(ResultFile.NAME).toString(), "--out",
                tmp.resolve("twice").toString());
        assertTrue(e.thrown().getMessage().contains("is given twice"), e.thrown().getMessage());
        assertFalse(Files.exists(tmp.resolve("twice")));
    }

    @Test
    void usageErrorsAndHelp() {
        assertEquals(2, execute().exitCode(), "no subcommand");
        assertEquals(2, execute("compare", dirA.toString()).exitCode(), "compare needs two runs");
        assertEquals(2, execute("merge", dirA.toString()).exitCode(), "merge needs --out");
        assertEquals(2, execute("dashboard").exitCode(), "dashboard needs a run");
        Execution bad = execute("compare", dirA.toString(), dirB.toString(), "--threshold", "-1");
        assertInstanceOf(BadInputException.class, bad.thrown());
        for (String sub : List.of("render", "dashboard", "compare", "merge")) {
            Execution help = execute(sub, "--help");
            assertEquals(0, help.exitCode());
            assertNull(help.thrown());
            assertTrue(help.out().length() > 200, help.out());
        }
        assertTrue(execute("compare", "--help").out().contains("Noise threshold in percent"));
        assertTrue(execute("--help").out().contains("render"));
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

package dev.gauntlet.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.report.ChartFonts;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host without fonts (many container images and cloud hosts): a workload's run, in a child JVM whose mount namespace
 * hides every font directory, exits 0 with result.json, report.md and dashboard.html written and one line saying why
 * the charts are missing and how to get them; {@code report render} likewise, never a stack trace.
 */
@ExtendWith(PostgresExtension.class)
class WithoutFontsTest {

    /** Where fontconfig and the JDK look for fonts and their configuration. */
    private static final List<String> FONT_DIRECTORIES = List.of("/usr/share/fonts", "/usr/local/share/fonts",
            "/etc/fonts", System.getProperty("user.home") + "/.fonts",
            System.getProperty("user.home") + "/.local/share/fonts",
            Path.of(System.getProperty("java.home"), "lib", "fonts").toString());
    private static final String THE_LINE = "Charts not drawn: Java found no usable fonts on this machine";

    @Test
    void aRunWithoutFontsExitsZeroWithItsReportAndSaysWhyTheChartsAreMissing(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        assumeTrue(unshareWorks(tmp), "needs 'unshare --mount' (root, or user namespaces) to hide the fonts from a "
                + "child JVM; not available here");
        TestDatabase db = server.freshDatabase("kv_no_fonts");
        CommandRun init = CommandRun.of(new KvCommand(), db, "init", "--keys", "1000");
        assertEquals(0, init.code(), init.err());
        Path out = tmp.resolve("run");
        List<String> run = new ArrayList<>(List.of("run", "--url", db.jdbcUrl(), "--user", db.user()));
        if (db.password() != null) {
            run.add("--password=" + db.password());
        }
        run.addAll(List.of("--duration", "3s", "--report-every", "1s", "--out", out.toString(),
                "--verbose"));
        Child ran = withoutFonts(tmp, run);
        assertEquals(0, ran.code, "a run's exit status says what the run did, not whether a chart was drawn:\n"
                + ran.output);
        assertTrue(ran.output.contains(THE_LINE), ran.output);
        assertTrue(ran.output.contains("apt-get install fontconfig fonts-dejavu-core"), ran.output);
        assertFalse(ran.output.contains("\tat "), "no stack trace:\n" + ran.output);
        for (String file : List.of("result.json", "report.md", "dashboard.html", "timeline.jsonl.gz")) {
            assertTrue(Files.isRegularFile(out.resolve(file)), file + " written: " + list(out));
        }
        assertFalse(Files.exists(out.resolve("throughput.png")), "no chart without fonts: " + list(out));
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains(THE_LINE), "report.md says why it has no charts");
        assertFalse(report.contains("](throughput.png)"), "report.md links no chart it does not have");
        assertTrue(ResultFile.read(out).operations().stream().mapToLong(o -> o.count()).sum() > 0,
                "the run measured:\n" + ran.output);

        Child render = withoutFonts(tmp, List.of("report", "render", out.toString()));
        assertEquals(0, render.code, render.output);
        assertTrue(render.output.contains("wrote report.md to " + out), render.output);
        assertTrue(render.output.contains(THE_LINE), render.output);
        assertFalse(render.output.contains("\tat "), "no stack trace:\n" + render.output);

        // The same directory where there are fonts (this JVM's machine, when it has them) gets its charts back.
        if (ChartFonts.missing().isEmpty()) {
            assertEquals(0, GauntletCommandLine.create(new KvCommand()).execute("report", "render", out.toString()));
            assertTrue(Files.isRegularFile(out.resolve("throughput.png")), list(out).toString());
            assertTrue(Files.readString(out.resolve("report.md")).contains("](throughput.png)"));
        }
    }

    private record Child(int code, String output) {
    }

    /** The workload's main in a child JVM, with every font directory under an empty tmpfs of its own namespace. */
    private static Child withoutFonts(Path tmp, List<String> args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder script = new StringBuilder("set -e; ");
        for (String dir : FONT_DIRECTORIES) {
            if (Files.isDirectory(Path.of(dir))) {
                script.append("mount -t tmpfs none '").append(dir).append("'; ");
            }
        }
        script.append("exec \"$@\"");
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "sh", "-c", script.toString(), "sh",
                java, "-cp", System.getProperty("java.class.path"), KvCommand.class.getName()));
        command.addAll(args);
        Path log = Files.createTempFile(tmp, "child", ".log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the child JVM did not finish in 3 minutes: " + Files.readString(log));
        }
        return new Child(p.exitValue(), Files.readString(log));
    }

    private static boolean unshareWorks(Path tmp) throws InterruptedException {
        try {
            Process p = new ProcessBuilder("unshare", "--mount", "sh", "-c", "mount -t tmpfs none '" + tmp + "'")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}

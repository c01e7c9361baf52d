package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.host.Executables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pages' browser tests: a real headless Chromium loads a page from disk and gives back its DOM after scripts, or
 * a screenshot.
 */
final class HeadlessChromium {

    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 1000;

    private HeadlessChromium() {
    }

    /** Debian's chromium, or Ubuntu's chromium-browser, on the PATH. */
    static Optional<Path> find() {
        return Executables.find("chromium").or(() -> Executables.find("chromium-browser"));
    }

    /** The page's DOM once its scripts have run (5 s of virtual time), using {@code work} for the profile and logs. */
    static String dumpDom(Path chromium, Path page, Path work) throws IOException, InterruptedException {
        return dumpDom(chromium, page.toUri().toString(), WIDTH, work);
    }

    /** Likewise for a URL (a page with a fragment), in a window {@code width} CSS px wide. */
    static String dumpDom(Path chromium, String url, int width, Path work) throws IOException, InterruptedException {
        return dumpDom(chromium, url, width, work, true);
    }

    /**
     * The DOM once the page has loaded, in real time: no virtual time budget, so a page's clock
     * ({@code performance.now()}) reads what loading took; scripts that wait on timers may not have run.
     */
    static String dumpDomInRealTime(Path chromium, Path page, Path work) throws IOException, InterruptedException {
        return dumpDom(chromium, page.toUri().toString(), WIDTH, work, false);
    }

    private static String dumpDom(Path chromium, String url, int width, Path work, boolean virtualTime)
            throws IOException, InterruptedException {
        Path out = work.resolve("dom.html");
        run(chromium, work, width, HEIGHT, out, virtualTime, "--dump-dom", url);
        String dom = Files.readString(out);
        assertFalse(dom.isBlank(), "chromium dumped no DOM: " + Files.readString(work.resolve("chromium.log")));
        return dom;
    }

    /**
     * A PNG of the top of the page once its scripts have run, as a window {@code width} by {@code height} CSS px
     * (at one device pixel each, no scroll bars) shows it, written to {@code png}.
     */
    static void screenshot(Path chromium, String url, int width, int height, Path png, Path work)
            throws IOException, InterruptedException {
        Files.deleteIfExists(png);
        run(chromium, work, width, height, work.resolve("screenshot.log"), true,
                "--screenshot=" + png.toAbsolutePath(), url);
        assertTrue(Files.isRegularFile(png), "chromium wrote no screenshot: "
                + Files.readString(work.resolve("chromium.log")));
    }

    private static void run(Path chromium, Path work, int width, int height, Path out, boolean virtualTime,
                            String... what) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(work.resolve("chromium-profile"));
        Path err = work.resolve("chromium.log");
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile,
                "--window-size=" + width + "," + height, "--force-device-scale-factor=1", "--hide-scrollbars"));
        if (virtualTime) {
            command.add("--virtual-time-budget=5000");
        }
        command.addAll(List.of(what));
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish in 120 s: " + Files.readString(err));
        }
        assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
    }

    /** The attributes of the DOM's body element, as written. */
    static String bodyAttributes(String dom) {
        Matcher body = BODY.matcher(dom);
        if (!body.find()) {
            throw new AssertionError("no <body> in " + dom);
        }
        return body.group(1);
    }

    /** What the page's #errors box shows, for failure messages. */
    static String errors(String dom) {
        Matcher m = Pattern.compile("<div id=\"errors\"[^>]*>(.*?)</div>", Pattern.DOTALL).matcher(dom);
        return m.find() ? "errors shown: " + m.group(1) : "no #errors element";
    }
}

package dev.gauntlet.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gauntlet.core.host.Executables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The pages' browser tests: a real headless Chromium loads a page from disk and gives back its DOM after scripts. */
final class HeadlessChromium {

    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");

    private HeadlessChromium() {
    }

    /** Debian's chromium, or Ubuntu's chromium-browser, on the PATH. */
    static Optional<Path> find() {
        return Executables.find("chromium").or(() -> Executables.find("chromium-browser"));
    }

    /** The page's DOM once its scripts have run (5 s of virtual time), using {@code work} for the profile and logs. */
    static String dumpDom(Path chromium, Path page, Path work) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(work.resolve("chromium-profile"));
        Path out = work.resolve("dom.html");
        Path err = work.resolve("chromium.log");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile, "--window-size=1280,1000",
                "--virtual-time-budget=5000", "--dump-dom", page.toUri().toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish in 60 s: " + Files.readString(err));
        }
        String dom = Files.readString(out);
        assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
        assertFalse(dom.isBlank(), "chromium dumped no DOM: " + Files.readString(err));
        return dom;
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

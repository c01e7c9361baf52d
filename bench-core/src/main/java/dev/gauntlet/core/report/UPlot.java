package dev.gauntlet.core.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The chart library of the dashboard, uPlot (MIT licence, github.com/leeoniya/uPlot), read from its webjar
 * ({@code org.webjars.npm:uplot}) on the classpath so a dashboard can inline it and open from disk with no network.
 * The webjar's own {@code pom.properties} names the version, so upgrading the dependency needs no change here.
 * The texts are read once, on first use, and can be inlined as they are (see {@link InlineAsset}).
 */
final class UPlot {

    private static final String POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";

    private static final String DIST = "/META-INF/resources/webjars/uplot/" + version() + "/dist/";
    private static final String SCRIPT = InlineAsset.script(DIST + "uPlot.iife.min.js");
    private static final String STYLESHEET = InlineAsset.stylesheet(DIST + "uPlot.min.css");

    private UPlot() {
    }

    /** The library as a classic script defining the global {@code uPlot}. */
    static String script() {
        return SCRIPT;
    }

    static String stylesheet() {
        return STYLESHEET;
    }

    private static String version() {
        Properties pom = new Properties();
        try (InputStream in = UPlot.class.getResourceAsStream(POM)) {
            if (in == null) {
                throw new IllegalStateException("uPlot is not on the classpath (no " + POM + ")");
            }
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + POM, e);
        }
        return pom.getProperty("version");
    }
}

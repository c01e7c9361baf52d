package dev.gauntlet.core.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The chart library of the dashboard, uPlot (MIT licence, github.com/leeoniya/uPlot), read from its webjar
 * ({@code org.webjars.npm:uplot}) on the classpath so a dashboard can inline it and open from disk with no network.
 * The webjar's own {@code pom.properties} names the version, so upgrading the dependency needs no change here.
 * The texts are read on each call (one dashboard per run) and can be inlined as they are (see {@link InlineAsset}).
 */
final class UPlot {

    private static final String POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";

    private UPlot() {
    }

    /**
     * The library as a classic script defining the global {@code uPlot}, led by its licence in a comment (the MIT
     * licence asks that copies carry it).
     */
    static String script() {
        String licence = InlineAsset.script(root() + "LICENSE");
        if (licence.contains("*/")) {
            throw new IllegalStateException("uPlot's LICENSE cannot be put in a comment");
        }
        return "/*! uPlot " + version() + ":\n" + licence.strip() + "\n*/\n"
                + InlineAsset.script(root() + "dist/uPlot.iife.min.js");
    }

    static String stylesheet() {
        return InlineAsset.stylesheet(root() + "dist/uPlot.min.css");
    }

    /** Where the webjar keeps this version's files. */
    private static String root() {
        return "/META-INF/resources/webjars/uplot/" + version() + "/";
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

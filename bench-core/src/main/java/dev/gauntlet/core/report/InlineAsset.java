package dev.gauntlet.core.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A script or stylesheet read from the classpath to be inlined into a self-contained page. Contract: the text
 * returned can be put between {@code <script>} and {@code </script>} (or {@code <style>} and {@code </style>}) as
 * it is: a text holding the closing tag, which would end its element early, is refused with an
 * {@link IllegalStateException}, as is a missing resource (a build without the dependency).
 */
final class InlineAsset {

    private InlineAsset() {
    }

    static String script(String classpathPath) {
        return read(classpathPath, "</script");
    }

    static String stylesheet(String classpathPath) {
        return read(classpathPath, "</style");
    }

    private static String read(String path, String endTag) {
        String text;
        try (InputStream in = InlineAsset.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the classpath");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        if (text.toLowerCase(Locale.ROOT).contains(endTag)) {
            throw new IllegalStateException(path + " contains " + endTag + ">, so it cannot be inlined");
        }
        return text;
    }
}

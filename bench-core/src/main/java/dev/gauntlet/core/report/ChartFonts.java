package dev.gauntlet.core.report;

import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.font.TextLayout;
import java.awt.image.BufferedImage;
import java.util.Optional;

/**
 * Whether this JVM can draw the PNG charts' text. Java's font system needs fonts on the machine (on Linux, through
 * fontconfig); many container images and cloud hosts have none, and there the first label of a chart fails with an
 * {@code InternalError} ("Fontconfig head is null"), a {@code NoClassDefFoundError} for the font manager, or an
 * {@code UnsatisfiedLinkError} for a missing native font library. A run's exit status says what the run did, never
 * whether a picture could be drawn: without fonts the charts are left out, report.md says why, the command prints
 * {@link #missing() one line} with the fix, and result.json and dashboard.html (drawn by the browser) are written as
 * always.
 *
 * <p>The answer holds for the JVM's life (its font manager is made once, and stays broken once it failed), so it
 * is probed once, and a drawing that fails later for the same reason {@linkplain #failed records} it.
 */
public final class ChartFonts {

    /** How a Debian or Ubuntu host (and the eclipse-temurin images) gets fonts Java can use. */
    public static final String INSTALL = "apt-get install fontconfig fonts-dejavu-core";

    static {
        // Reports are rendered on servers and in CI without a display (set before anything of AWT loads).
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static volatile String missing = probe();

    private ChartFonts() {
    }

    /**
     * Empty when charts can be drawn; else the one line a command prints: why the charts were not drawn and how to
     * get them.
     */
    public static Optional<String> missing() {
        return Optional.ofNullable(missing);
    }

    /**
     * Records that drawing a chart failed with {@code cause}, past the probe: no further chart is tried in this JVM
     * (a font system that failed once stays failed). A failure that is not the font system's is said as such.
     */
    static void failed(Throwable cause) {
        jvmFailing(cause);
        missing = cause instanceof Error || rootMessage(cause).toLowerCase(java.util.Locale.ROOT).contains("font")
                ? line(cause)
                : "Charts not drawn: drawing them failed (" + rootMessage(cause) + "); run 'report render DIR' "
                        + "to try again; dashboard.html ('report dashboard DIR') draws them in a browser";
    }

    /** Lays out one label the way a chart does; null when that works. */
    private static String probe() {
        try {
            BufferedImage image = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB);
            Graphics2D g = image.createGraphics();
            try {
                new TextLayout("0", new Font(Font.SANS_SERIF, Font.PLAIN, 12), g.getFontRenderContext()).getBounds();
            } finally {
                g.dispose();
            }
            return null;
        } catch (Exception | Error e) {
            return line(jvmFailing(e));
        }
    }

    /**
     * {@code cause}, unless it says the JVM itself is failing (out of memory, a stack overflow), which is thrown
     * again: the font system throws {@code InternalError}, plain {@code Error}s ("Probable fatal error: No physical
     * fonts found"), linkage errors and runtime exceptions, all of them a missing font.
     */
    static Throwable jvmFailing(Throwable cause) {
        if (cause instanceof VirtualMachineError vm && !(cause instanceof InternalError)) {
            throw vm;
        }
        return cause;
    }

    private static String line(Throwable cause) {
        return "Charts not drawn: Java found no usable fonts on this machine (" + rootMessage(cause) + "); "
                + "install them (" + INSTALL + ", or your image's equivalent) and run 'report render DIR' to draw "
                + "them; dashboard.html ('report dashboard DIR') draws them in a browser";
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message.strip());
    }
}

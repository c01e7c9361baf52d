package dev.gauntlet.core.cli;

import dev.gauntlet.core.result.Environment;
import dev.gauntlet.core.result.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Who produced a result and where: the tool's version and commit, the JVM, OS, CPUs and host. */
public final class Provenance {

    private static final Properties BUILD = load();

    private Provenance() {
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Provenance.class.getResourceAsStream("/gauntlet-build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // Version shows as "unknown".
        }
        return p;
    }

    public static String version() {
        return BUILD.getProperty("version", "unknown");
    }

    public static Tool tool(String name) {
        String commit = BUILD.getProperty("git.commit", "");
        if (commit.isBlank() || commit.startsWith("${")) {
            commit = "unknown";
        }
        if (Boolean.parseBoolean(BUILD.getProperty("git.dirty", "false"))) {
            commit += "-dirty";
        }
        return new Tool(name, version(), commit);
    }

    public static Environment environment(String database, String databaseUrl) {
        Runtime rt = Runtime.getRuntime();
        return new Environment(
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                rt.availableProcessors(), rt.maxMemory(), host(), database, databaseUrl);
    }

    private static String host() {
        String h = System.getenv("HOSTNAME");
        if (h != null && !h.isBlank()) {
            return h;
        }
        try {
            return Files.readString(Path.of("/etc/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}

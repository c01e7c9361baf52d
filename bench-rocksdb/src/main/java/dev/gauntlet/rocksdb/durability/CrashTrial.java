package dev.gauntlet.rocksdb.durability;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.host.HostCommand;
import dev.gauntlet.rocksdb.fill.RocksDbStore;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.rocksdb.RocksDB;

/**
 * One crash trial: a child JVM ({@link CrashWriter}) writes N keys, the parent kills it with SIGKILL
 * ({@link Process#destroyForcibly}) once it says it has written them, reopens the database (which replays the
 * WAL) and counts the keys that survived. Nothing is faked: the kill is a real kill of a real process.
 */
public final class CrashTrial {

    /** What one trial found. */
    public record Outcome(DurabilityCase writerCase, long written, long survived) {
        public long lost() {
            return written - survived;
        }
    }

    private CrashTrial() {
    }

    public static Outcome run(DurabilityCase c, long num, Path dir) throws IOException, InterruptedException {
        if (num < 1) {
            throw new BadInputException("--num must be at least 1 (got " + num + ")");
        }
        List<String> command = List.of(javaBinary(), "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-cp", classPath(), CrashWriter.class.getName(),
                dir.toString(), String.valueOf(num), c.name());
        Process p = HostCommand.of(command).start(ProcessBuilder.Redirect.PIPE, ProcessBuilder.Redirect.INHERIT);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line;
            boolean written = false;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(CrashWriter.WRITTEN)) {
                    written = true;
                    break;
                }
            }
            if (!written) {
                p.waitFor(10, TimeUnit.SECONDS);
                throw new IOException("the writer process ended before writing its keys (exit "
                        + (p.isAlive() ? "none" : String.valueOf(p.exitValue())) + ")");
            }
        } finally {
            p.destroyForcibly();
            p.waitFor(60, TimeUnit.SECONDS);
        }
        return new Outcome(c, num, RocksDbStore.countKeys(dir));
    }

    /** The java binary running this JVM. */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * This JVM's class path plus the jars or directories of the classes the writer needs, so the child starts
     * also where the class path property says little (exec:java, an IDE's launcher).
     */
    static String classPath() {
        Set<String> entries = new LinkedHashSet<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        for (Class<?> k : List.of(CrashWriter.class, RocksDB.class, BadInputException.class)) {
            try {
                entries.add(Path.of(k.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (URISyntaxException | RuntimeException e) {
                // The class path property alone has to do.
            }
        }
        entries.remove("");
        return String.join(File.pathSeparator, entries);
    }
}

package dev.gauntlet.sql.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.sql.lab.PatroniCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab up} from a user's shell that has PostgreSQL's, etcd's and Patroni's variables set for something else
 * (a {@code PGPASSWORD} for their own server once kept every replica from cloning): the lab still comes up and takes
 * writes, since every program it starts gets an environment of the lab's choosing; and taken down by SIGTERM (what
 * Ctrl-C's shutdown does) it keeps its logs in the directory it names. Needs root and the lab's packages (.ci/run
 * installs them); skipped with the reason elsewhere.
 */
@Tag("long")
@Tag("lab")
class LabInAUsersShellTest {

    /** Every variable set to a wrong value: each would break a lab program that read it. */
    static final Map<String, String> HOSTILE = Map.ofEntries(
            Map.entry("PGPASSWORD", "not-the-labs-password"),
            Map.entry("PGUSER", "nobody"),
            Map.entry("PGHOST", "/nonexistent-socket-directory"),
            Map.entry("PGPORT", "1"),
            Map.entry("PGDATABASE", "nowhere"),
            Map.entry("PGSSLMODE", "verify-full"),
            Map.entry("PGPASSFILE", "/nonexistent/pgpass"),
            Map.entry("PGSERVICE", "no-such-service"),
            Map.entry("PGOPTIONS", "-c default_transaction_read_only=on"),
            Map.entry("ETCDCTL_API", "2"),
            Map.entry("ETCDCTL_ENDPOINTS", "http://127.0.0.1:1"),
            Map.entry("ETCD_NAME", "not-a-member"),
            Map.entry("PATRONI_SCOPE", "another-cluster"),
            Map.entry("PATRONI_NAME", "not-a-node"),
            Map.entry("PATRONI_REPLICATION_PASSWORD", "wrong"),
            Map.entry("PATRONI_SUPERUSER_PASSWORD", "wrong"));

    private static final Pattern PRIMARY = Pattern.compile("primary \\(HAProxy\\): +(\\S+)");
    private static final Pattern PASSWORD = Pattern.compile("password: (\\S+)");
    private static final Pattern KEPT = Pattern.compile("kept in (\\S+)");

    @Test
    void aLabComesUpWhateverTheUsersShellHoldsAndKeepsItsLogsWhenDown(@TempDir Path tmp) throws Exception {
        try {
            PatroniCluster.requireHost();
        } catch (IllegalStateException e) {
            assumeTrue(false, e.getMessage());
        }
        Path log = tmp.resolve("lab-up.log");
        ProcessBuilder child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LabMain.class.getName(), "up")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        child.environment().putAll(HOSTILE);
        Process lab = child.start();
        try {
            String said = awaitUp(lab, log);
            Matcher url = PRIMARY.matcher(said);
            Matcher password = PASSWORD.matcher(said);
            assertTrue(url.find() && password.find(), said);
            Properties p = new Properties();
            p.setProperty("user", PatroniCluster.SUPERUSER);
            p.setProperty("password", password.group(1));
            try (Connection c = DriverManager.getConnection(url.group(1), p); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE shell (n int)");
                s.execute("INSERT INTO shell VALUES (1)");
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM shell")) {
                    rs.next();
                    assertEquals(1, rs.getInt(1));
                }
            }
        } finally {
            lab.destroy();
            assertTrue(lab.waitFor(90, TimeUnit.SECONDS), "lab up ended on SIGTERM: " + Files.readString(log));
        }
        String said = Files.readString(log);
        Matcher kept = KEPT.matcher(said);
        assertTrue(kept.find(), said);
        Path logs = Path.of(kept.group(1));
        try {
            for (String f : List.of("n1.log", "n2.log", "n3.log", "e1.log", "e2.log", "e3.log", "haproxy.log",
                    "n1/patroni.yml", "n2/patroni.yml")) {
                assertTrue(Files.isRegularFile(logs.resolve(f)), f + " kept in " + logs + ": " + said);
            }
            assertFalse(Files.readString(logs.resolve("n2/patroni.yml")).contains(
                    PASSWORD.matcher(said).results().findFirst().orElseThrow().group(1)), "no password kept");
            Matcher dir = Pattern.compile("files: +(\\S+)").matcher(said);
            assertTrue(dir.find(), said);
            assertFalse(Files.exists(Path.of(dir.group(1))), "the lab's own directory is gone");
        } finally {
            new ProcessBuilder("rm", "-rf", logs.toString()).start().waitFor();
        }
    }

    /** What {@code lab up} printed once it said the lab is up; fails with its output if it ended or took 4 min. */
    private static String awaitUp(Process lab, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        while (System.nanoTime() < deadline) {
            String said = Files.readString(log);
            if (said.contains("Ctrl-C takes it down.")) {
                return said;
            }
            if (!lab.isAlive()) {
                throw new AssertionError("lab up ended (exit " + lab.exitValue() + ") before the lab was up: " + said);
            }
            Thread.sleep(500);
        }
        throw new AssertionError("lab up did not say the lab was up in 4 min: " + Files.readString(log));
    }

    /** {@code lab} as a program of its own: what a workload's jar runs for {@code lab up}. */
    public static final class LabMain {

        public static void main(String[] args) {
            System.exit(new picocli.CommandLine(new LabCommand()).execute(args));
        }
    }
}

package dev.gauntlet.script;

import dev.gauntlet.testing.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * PostgreSQL 15's pgbench binary, run against a test database: Debian's {@code /usr/lib/postgresql/15/bin/pgbench},
 * else {@code pgbench} on the PATH if it is version 15. A test that needs it is skipped, saying why, where there is none.
 */
final class RealPgbench {

    private static final Path DEBIAN_15 = Path.of("/usr/lib/postgresql/15/bin/pgbench");
    private static final Pattern HOST_PORT = Pattern.compile("^jdbc:postgresql://([^:/,?]+)(?::(\\d+))?/");

    /** What a pgbench run printed, and its exit code. */
    record Outcome(int code, String output) {
    }

    private final String binary;

    private RealPgbench(String binary) {
        this.binary = binary;
    }

    /** The pgbench 15 of this machine; the calling test is skipped when there is none. */
    static RealPgbench require() {
        Optional<RealPgbench> found = find();
        Assumptions.assumeTrue(found.isPresent(), "no PostgreSQL 15 pgbench: neither " + DEBIAN_15
                + " nor a pgbench 15 on the PATH");
        return found.get();
    }

    /** The pgbench 15 of this machine, if it has one. */
    static Optional<RealPgbench> available() {
        return find();
    }

    private static Optional<RealPgbench> find() {
        if (Files.isExecutable(DEBIAN_15)) {
            return Optional.of(new RealPgbench(DEBIAN_15.toString()));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, "pgbench");
            if (Files.isExecutable(candidate)) {
                RealPgbench pgbench = new RealPgbench(candidate.toString());
                return pgbench.version().contains(" 15.") ? Optional.of(pgbench) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private String version() {
        try {
            Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** {@code pgbench ARGS -h HOST -p PORT -U USER DATABASE}, the password in PGPASSWORD. */
    Outcome run(TestDatabase db, String... args) throws IOException, InterruptedException {
        Matcher m = HOST_PORT.matcher(db.jdbcUrl());
        if (!m.find()) {
            throw new IllegalArgumentException("not a single-host URL pgbench can be given: " + db.jdbcUrl());
        }
        List<String> command = new ArrayList<>(List.of(binary));
        command.addAll(List.of(args));
        command.addAll(List.of("-h", m.group(1), "-p", m.group(2) == null ? "5432" : m.group(2), "-U", db.user(),
                db.database()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (db.password() != null) {
            builder.environment().put("PGPASSWORD", db.password());
        }
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("pgbench " + String.join(" ", args) + " did not end in 300 s:\n" + out);
        }
        return new Outcome(p.exitValue(), out);
    }

    /** Runs pgbench and fails the test, showing its output, unless it exits 0. */
    String succeed(TestDatabase db, String... args) throws IOException, InterruptedException {
        Outcome o = run(db, args);
        if (o.code() != 0) {
            throw new AssertionError("pgbench " + String.join(" ", args) + " exited " + o.code() + ":\n" + o.output());
        }
        return o.output();
    }
}

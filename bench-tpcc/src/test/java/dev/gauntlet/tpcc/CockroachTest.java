package dev.gauntlet.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.cli.GauntletCommandLine;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import picocli.CommandLine;

/**
 * The workload on CockroachDB: load, a short serializable run (40001 retried on the client), and the
 * consistency checks. Runs against {@code COCKROACH_URL} (e.g.
 * {@code jdbc:postgresql://host:26257/tpcc?sslmode=disable}, user from {@code COCKROACH_USER}, default root),
 * else a single-node CockroachDB container when a Docker engine answers; skipped, saying so, otherwise.
 */
class CockroachTest {

    static final String IMAGE = "cockroachdb/cockroach:v25.2.2";
    static GenericContainer<?> container;
    static String url;
    static String user;
    static String unavailable;

    @BeforeAll
    static void cockroach() {
        url = System.getenv("COCKROACH_URL");
        user = System.getenv().getOrDefault("COCKROACH_USER", "root");
        if (url != null) {
            return;
        }
        if (!dockerAnswers()) {
            unavailable = "no CockroachDB reachable: set COCKROACH_URL="
                    + "jdbc:postgresql://HOST:26257/tpcc?sslmode=disable, or run with a Docker engine for " + IMAGE;
            return;
        }
        container = new GenericContainer<>(IMAGE).withCommand("start-single-node", "--insecure")
                .withExposedPorts(26257, 8080)
                .waitingFor(Wait.forHttp("/health?ready=1").forPort(8080).withStartupTimeout(Duration.ofMinutes(3)));
        container.start();
        url = "jdbc:postgresql://" + container.getHost() + ":" + container.getMappedPort(26257)
                + "/defaultdb?sslmode=disable";
    }

    private static boolean dockerAnswers() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @AfterAll
    static void stop() {
        if (container != null) {
            container.stop();
        }
    }

    private static int tpcc(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", url, "--user", user));
        StringWriter err = new StringWriter();
        CommandLine cli = GauntletCommandLine.create(new TpccCommand());
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(all.toArray(String[]::new));
        assertEquals(0, code, err.toString());
        return code;
    }

    @Test
    void loadsRunsAndChecksCleanly(@TempDir Path tmp) throws Exception {
        assumeTrue(unavailable == null, unavailable);
        tpcc("init", "--warehouses", "1", "--drop");
        tpcc("run", "--duration", "5s", "--clients", "4", "--expensive-checks", "--out", tmp.resolve("run").toString());
        RunResult r = ResultFile.read(tmp.resolve("run").resolve(ResultFile.NAME));
        assertEquals("serializable", r.parameters().get("isolation"));
        assertEquals("CockroachDB", r.parameters().get("dialect"));
        assertTrue(r.metrics().get("tpmC") > 0);
        assertTrue(r.checks().stream().noneMatch(c -> c.status() == Check.Status.FAIL), r.checks().toString());
    }
}

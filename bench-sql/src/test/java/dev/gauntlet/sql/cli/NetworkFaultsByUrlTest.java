package dev.gauntlet.sql.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.DisruptionPlan;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlTestServer;
import dev.gauntlet.sql.adversity.TargetHosts;
import dev.gauntlet.sql.adversity.Toxiproxy;
import dev.gauntlet.sql.observe.ServerHealth;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Network faults against a server given by {@code --url}: Toxiproxy in front of each server of the URL carries the
 * workload's sessions only, so a partition of the workload's path leaves administration and the probes alone, and a
 * plan's {@code hosts} puts a fault on the proxies of the servers it names and no other. The URL names the test's
 * server twice ({@code localhost} and {@code 127.0.0.1}): two servers to the plan, n1 and n2, two proxies.
 */
class NetworkFaultsByUrlTest {

    /** A session stuck behind a partition gives up after this; the straight path must answer well within it. */
    private static final int STUCK_MILLIS = 3000;

    static SqlTestServer server;
    static String twice;

    @BeforeAll
    static void server() {
        Assumptions.assumeTrue(Toxiproxy.find().isPresent(), "Toxiproxy is not installed: " + Toxiproxy.INSTALL);
        server = SqlTestServer.shared().freshDatabase("network_by_url");
        TargetHosts.HostPort one = TargetHosts.ofUrl(server.url()).orElseThrow().hosts().get(0);
        String other = one.host().equals("localhost") ? "127.0.0.1" : one.host().equals("127.0.0.1") ? "localhost"
                : one.host();
        twice = TargetHosts.withServers(server.url(), List.of(one, new TargetHosts.HostPort(other, one.port())))
                .orElseThrow();
    }

    /** The run's options as {@code --url URL --user U --password P} give them. */
    static ConnectionOptions connection(String url) {
        ConnectionOptions c = new ConnectionOptions();
        c.url = url;
        c.user = server.user();
        c.password = server.password();
        c.pool = List.of("direct");
        c.poolSize = 1;
        return c;
    }

    /** The run's options as {@code run --plan FILE --seed 1} gives them. */
    static RunOptions options(Path plan) {
        RunOptions options = new RunOptions();
        new picocli.CommandLine(options).parseArgs("--plan", plan.toString(), "--seed", "1");
        return options;
    }

    /** The plan's disruptions as the run gets them, each made on the run's system. */
    static List<Disruption> disruptions(AdversityRun run) {
        return run.apply(RunPlan.closedLoop(1, Duration.ofSeconds(1)), true).disruptions().stream()
                .map(DisruptionPlan::disruption).toList();
    }

    static Path plan(Path dir, String disruption) throws Exception {
        return Files.writeString(dir.resolve("plan.yaml"), "phases:\n  - name: p\n    length: 10m\n    disruptions:\n"
                + "      - " + disruption + "\n");
    }

    /** A session on {@code url} that gives up on a reply after {@link #STUCK_MILLIS}. */
    static Connection session(String url) throws SQLException {
        Connection c = new ConnectionSettings(url, server.user(), server.password()).connect();
        c.setNetworkTimeout(Runnable::run, STUCK_MILLIS);
        return c;
    }

    static void selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT 1");
        }
    }

    @Test
    void aPartitionOfTheWorkloadsPathLeavesAdministrationAndProbesAlone(@TempDir Path tmp) throws Exception {
        ConnectionOptions connection = connection(server.url());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (AdversityRun run = AdversityRun.prepare(options(plan(tmp, "{kind: blackhole, length: 1m}")), connection);
             Database db = run.open(connection, "network_by_url", new PrintStream(console, true,
                     StandardCharsets.UTF_8))) {
            Disruption blackhole = disruptions(run).get(0);
            List<String> notes = new ArrayList<>();
            ServerHealth health = new ServerHealth(db.settings());
            try (Connection workload = session(db.sessions().url())) {
                health.sample();
                blackhole.start(notes::add);
                try {
                    SQLException lost = assertThrows(SQLException.class, () -> selectOne(workload));
                    assertTrue(lost.getSQLState().startsWith("08"), lost.toString());
                    // Well within the time a session behind the partition waits before it gives up.
                    assertTimeoutPreemptively(Duration.ofMillis(STUCK_MILLIS), () -> {
                        assertTrue(health.sample().containsKey("checkpoints"), "the gauges are read");
                        try (Connection admin = db.settings().connectForAdmin()) {
                            selectOne(admin);
                        }
                    }, "administration and probes go straight to the server, not through the partition");
                } finally {
                    blackhole.stop(notes::add);
                }
            } finally {
                health.close();
            }
            assertTrue(notes.get(0).startsWith("full partition (all data dropped) for 100% of connections to every "
                    + "server (1 Toxiproxy proxy)"), notes.toString());
            assertEquals(server.url(), db.settings().url(), "administration and probes: the URL as given");
            assertTrue(db.sessions().url().startsWith("jdbc:postgresql://127.0.0.1:"), db.sessions().url());
            assertTrue(console.toString(StandardCharsets.UTF_8).contains("workload through Toxiproxy: n1 = "),
                    console.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aFaultOnOneHostTouchesOnlyThatServersProxy(@TempDir Path tmp) throws Exception {
        ConnectionOptions connection = connection(twice);
        try (AdversityRun run = AdversityRun.prepare(options(plan(tmp, "{kind: blackhole, length: 1m, hosts: [n2]}")),
                connection);
             Database db = run.open(connection, "network_by_url", new PrintStream(new ByteArrayOutputStream(), true,
                     StandardCharsets.UTF_8))) {
            List<TargetHosts.HostPort> proxies = TargetHosts.ofUrl(db.sessions().url()).orElseThrow().hosts();
            assertEquals(2, proxies.size(), db.sessions().url());
            String viaN1 = TargetHosts.withServers(db.sessions().url(), List.of(proxies.get(0))).orElseThrow();
            String viaN2 = TargetHosts.withServers(db.sessions().url(), List.of(proxies.get(1))).orElseThrow();
            Disruption blackhole = disruptions(run).get(0);
            List<String> notes = new ArrayList<>();
            try (Connection one = session(viaN1); Connection two = session(viaN2)) {
                blackhole.start(notes::add);
                try {
                    selectOne(one);
                    SQLException lost = assertThrows(SQLException.class, () -> selectOne(two));
                    assertTrue(lost.getSQLState().startsWith("08"), lost.toString());
                    try (Connection fresh = session(viaN1)) {
                        selectOne(fresh);
                    }
                } finally {
                    blackhole.stop(notes::add);
                }
            }
            TargetHosts.HostPort n2 = TargetHosts.ofUrl(twice).orElseThrow().hosts().get(1);
            assertEquals("full partition (all data dropped) for 100% of connections to n2 = " + n2
                    + " only (its Toxiproxy proxy, 1 of 2)", notes.get(0));
            try (Connection healed = session(viaN2)) {
                selectOne(healed);
            }
            assertFalse(notes.stream().anyMatch(n -> n.contains("reset of Toxiproxy")), notes.toString());
        }
    }
}

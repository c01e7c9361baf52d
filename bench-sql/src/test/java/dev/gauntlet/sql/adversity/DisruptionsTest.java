package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.sql.Await;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.SqlTestServer;
import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each disruption against a real embedded primary with a synchronous standby: it does what it says while on, and
 * once stopped the server is healthy again (accepts writes, nothing left behind: no index, no slot, no frozen
 * process, no toxic). The zone outage goes last: it swaps the roles. The servers are the test's own (disruptions stop,
 * kill and freeze them), used through {@link SqlTestServer}'s helpers; what a test waits for, it awaits as a
 * condition with a deadline ({@link Await}), never as a sleep.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("long")
class DisruptionsTest {

    @TempDir
    static Path home;
    static ReplicatedPostgres servers;
    static SystemUnderTest system;
    static ServerProxies proxies;
    static String url;
    static final List<String> notes = new ArrayList<>();
    /** Generous: a passing test waits only as long as the condition takes. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    @BeforeAll
    static void start() throws Exception {
        servers = ReplicatedPostgres.in(home).synchronousStandby().build().start(m -> { });
        servers.primary().createDatabaseIfAbsent("bench");
        String direct = ReplicatedPostgres.jdbcUrl(servers.ports(), "bench");
        if (Toxiproxy.find().isPresent()) {
            proxies = ServerProxies.start(direct);
        }
        url = proxies == null ? direct : proxies.sessionUrl();
        system = new SystemUnderTest(null, "bench", servers, proxies);
        try (Connection c = client(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id int PRIMARY KEY, v int)");
            s.execute("INSERT INTO t SELECT g, g FROM generate_series(1, 20000) g");
        }
    }

    @AfterAll
    static void stop() {
        if (proxies != null) {
            proxies.close();
        }
        servers.close();
    }

    /** A client as the workload connects: the multi-host URL (through Toxiproxy when it is installed). */
    static Connection client() throws SQLException {
        return SqlTestServer.connect(url, Duration.ofSeconds(5));
    }

    static Disruption make(String yamlDisruption, String length) {
        AdversityPlan plan = PlanFile.parse("t.yaml", "phases:\n  - name: p\n    length: 10m\n    disruptions:\n      - "
                + yamlDisruption + "\n");
        ScheduledDisruption s = plan.schedule(1).get(0);
        return Disruptions.of(s, system, null);
    }

    /** The server takes a write and answers a read, through the workload's URL. */
    static void assertHealthy() throws SQLException {
        try (Connection c = client(); Statement s = c.createStatement()) {
            s.execute("UPDATE t SET v = v + 1 WHERE id = 1");
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE id <= 20000")) {
                rs.next();
                assertEquals(20000, rs.getLong(1));
            }
        }
    }

    /** Database bench on the current primary, straight to it (never through the proxy). */
    static SqlTestServer primary() {
        return SqlTestServer.of(system.adminSettings());
    }

    /** Checkpoints the primary counts as requested (the CHECKPOINT command's), its counter since it started. */
    static long checkpointsRequested() throws SQLException {
        try (Connection c = primary().connect()) {
            boolean checkpointer = SqlTestServer.scalarLong(c, "SHOW server_version_num") >= 170000;
            return SqlTestServer.scalarLong(c, checkpointer ? "SELECT num_requested FROM pg_stat_checkpointer"
                    : "SELECT checkpoints_req FROM pg_stat_bgwriter");
        }
    }

    @Test
    @Order(1)
    void createIndexBuildsAndDropsItsIndex() throws Exception {
        Disruption d = make("{kind: create-index, table: t, columns: v}", null);
        d.start(notes::add);
        assertTrue(notes.get(notes.size() - 2).startsWith("CREATE INDEX CONCURRENTLY gauntlet_t_v_idx ON t (v) took"));
        assertEquals(0, primary().scalarLong(
                "SELECT count(*) FROM pg_indexes WHERE indexname = 'gauntlet_t_v_idx'"));
        assertHealthy();
    }

    @Test
    @Order(2)
    void backupCopiesTheDataDirectoryAndLeavesNothingBehind() throws Exception {
        Disruption d = make("{kind: backup}", null);
        d.start(notes::add);
        assertTrue(notes.get(notes.size() - 1).startsWith("base backup of "), notes.toString());
        try (var left = Files.list(servers.primary().dataDirectory().getParent())) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith("gauntlet-backup-")));
        }
        assertEquals(0, primary().scalarLong("SELECT count(*) FROM pg_stat_activity "
                + "WHERE backend_type = 'client backend' "
                + "AND pid <> pg_backend_pid() AND query LIKE '%pg_backup_start%'"));
        assertHealthy();
    }

    @Test
    @Order(3)
    void cdcReadsTheChangesAndDropsItsSlot() throws Exception {
        for (String plugin : List.of("test_decoding", "pgoutput")) {
            Disruption d = make("{kind: cdc, length: 1m, plugin: " + plugin + "}", null);
            d.start(notes::add);
            assertEquals(1, primary().scalarLong(
                    "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'gauntlet_cdc'"));
            String beforeUpdate = primary().scalar("SELECT pg_current_wal_lsn()");
            try (Connection c = client(); Statement s = c.createStatement()) {
                s.execute("UPDATE t SET v = v + 1 WHERE id <= 100");
            }
            // The consumer acknowledges what it read (status every second): once the slot confirms WAL written
            // after the update began, the consumer has read changes and its walsender reports a replay position.
            Await.until(PATIENCE, plugin + ": slot gauntlet_cdc to confirm changes past " + beforeUpdate,
                    () -> primary().scalarLong("SELECT count(*) FROM pg_replication_slots WHERE slot_name = "
                            + "'gauntlet_cdc' AND confirmed_flush_lsn > '" + beforeUpdate + "'::pg_lsn") == 1);
            // The standby's lag is the standby's: a CDC consumer's walsender is not a standby.
            Long lag = new dev.gauntlet.sql.observe.ServerHealth(system.adminSettings()).sample().get("replicationLagBytes");
            assertTrue(lag != null && lag < 64L << 20, plugin + ": replication lag " + lag);
            d.stop(notes::add);
            String read = notes.get(notes.size() - 1);
            assertFalse(read.startsWith("0 changes"), plugin + ": " + read);
            assertFalse(read.contains("broke"), read);
            assertEquals(0, primary().scalarLong(
                    "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'gauntlet_cdc'"));
            assertEquals(0, primary().scalarLong(
                    "SELECT count(*) FROM pg_publication WHERE pubname = 'gauntlet_cdc'"));
        }
        assertHealthy();
    }

    @Test
    @Order(4)
    void checkpointStormCheckpointsUntilStopped() throws Exception {
        Disruption d = make("{kind: checkpoint-storm, length: 1m, every: 200ms}", null);
        long before = checkpointsRequested();
        d.start(notes::add);
        // Until the server has done two requested checkpoints; the storm's own count is then at least two.
        Await.until(PATIENCE, "the primary to count 2 requested checkpoints since the storm began (from " + before
                + ")", () -> checkpointsRequested() >= before + 2);
        d.stop(notes::add);
        String storm = notes.get(notes.size() - 1);
        int count = Integer.parseInt(storm.substring(0, storm.indexOf(' ')));
        assertTrue(count >= 2, storm);
        make("{kind: vacuum-full, table: t}", null).start(notes::add);
        assertTrue(notes.get(notes.size() - 1).startsWith("VACUUM FULL t took"));
        assertHealthy();
    }

    @Test
    @Order(5)
    void diskStallFreezesThePrimaryUntilStopped() throws Exception {
        Disruption d = make("{kind: disk-stall, length: 1m}", null);
        d.start(notes::add);
        try {
            // SIGSTOP is delivered asynchronously: a process running on the other core shows 'R' for a moment
            // after kill(2) returned (seen once on JDK 25), so each is given a few seconds to reach 'T'.
            for (long pid : servers.primary().serverProcesses()) {
                dev.gauntlet.sql.Await.until(java.time.Duration.ofSeconds(5), "process " + pid + " to be stopped (T)",
                        () -> {
                            char state = SqlTestServer.processState(pid);
                            return state == 'T' || state == SqlTestServer.GONE;
                        });
            }
            SQLException hung = assertThrows(SQLException.class, () -> {
                try (Connection c = client(); Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                }
            });
            assertTrue(hung.getMessage().contains("timed out") || hung.getSQLState().startsWith("08"), hung.toString());
        } finally {
            d.stop(notes::add);
        }
        for (long pid : servers.primary().serverProcesses()) {
            assertNotEquals('T', SqlTestServer.processState(pid), "process " + pid + " resumed");
        }
        assertHealthy();
    }

    @Test
    @Order(6)
    void networkFaultsActOnTheProxiedPathAndAreRemoved() throws Exception {
        Assumptions.assumeTrue(proxies != null, "Toxiproxy is not installed: " + Toxiproxy.INSTALL);
        Disruption latency = make("{kind: latency, length: 1m, latency: 300ms}", null);
        latency.start(notes::add);
        try (Connection c = client(); Statement s = c.createStatement()) {
            long t0 = System.nanoTime();
            s.execute("SELECT 1");
            assertTrue(System.nanoTime() - t0 >= 600_000_000L, "one round trip takes the latency both ways");
        } finally {
            latency.stop(notes::add);
        }
        Disruption blackhole = make("{kind: blackhole, length: 1m}", null);
        try (Connection c = client(); Statement s = c.createStatement()) {
            blackhole.start(notes::add);
            try {
                SQLException lost = assertThrows(SQLException.class, () -> s.execute("SELECT 1"));
                assertTrue(lost.getSQLState().startsWith("08"), lost.toString());
            } finally {
                blackhole.stop(notes::add);
            }
        }
        Disruption standbyOnly = make("{kind: blackhole, length: 1m, hosts: [n2]}", null);
        try (Connection c = client(); Statement s = c.createStatement()) {
            standbyOnly.start(notes::add);
            try {
                s.execute("SELECT 1"); // the workload's sessions are on n1, the primary: untouched
                assertTrue(notes.get(notes.size() - 1).endsWith("to n2 = localhost:" + servers.ports().get(1)
                        + " only (its Toxiproxy proxy, 1 of 2)"), notes.toString());
            } finally {
                standbyOnly.stop(notes::add);
            }
        }
        Disruption reset = make("{kind: reset, length: 1m}", null);
        try (Connection c = client(); Statement s = c.createStatement()) {
            reset.start(notes::add);
            try {
                assertThrows(SQLException.class, () -> s.execute("SELECT 1"));
            } finally {
                reset.stop(notes::add);
            }
        }
        make("{kind: bandwidth, length: 1m, rate: 64}", null).start(notes::add);
        assertTrue(notes.get(notes.size() - 1).startsWith("replies limited to 64 KB/s"));
        proxies.toxiproxy().reset();
        assertHealthy();
    }

    @Test
    @Order(7)
    void restartsAndKillsCutSessionsAndTheServerComesBack() throws Exception {
        for (String kind : List.of("restart-fast", "restart-immediate", "kill-backend", "terminate-sessions")) {
            try (Connection victim = client(); Statement s = victim.createStatement()) {
                s.execute("SELECT 1");
                make("{kind: " + kind + "}", null).start(notes::add);
                SQLException cut = assertThrows(SQLException.class, () -> s.execute("SELECT 1"), kind);
                assertTrue(cut.getSQLState().startsWith("08") || cut.getSQLState().startsWith("57P"),
                        kind + ": " + cut);
            }
            awaitHealthy();
        }
    }

    /** Until {@link #assertHealthy} gets through: an SQL error means not yet; a wrong answer fails at once. */
    static void awaitHealthy() throws Exception {
        Await.untilSucceeds(PATIENCE, "the server to take a write and answer a read through " + url,
                SQLException.class, DisruptionsTest::assertHealthy);
    }

    @Test
    @Order(8)
    void zoneOutageFailsOverWithoutLossAndRebuildsTheOldPrimary() throws Exception {
        int before = servers.primary().port();
        try (Connection c = client(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO t VALUES (20001, 0)");
        }
        Disruption d = make("{kind: zone-outage, length: 1m, promote-after: 1s}", null);
        d.start(notes::add);
        assertNotEquals(before, servers.primary().port(), "the standby is the primary");
        awaitHealthy(); // the driver finds the new primary once it rechecks the hosts
        try (Connection c = client(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM t WHERE id = 20001")) {
            rs.next();
            assertEquals(1, rs.getLong(1), "the synchronous commit survived the failover");
            s.execute("DELETE FROM t WHERE id = 20001");
        }
        d.stop(notes::add);
        assertTrue(notes.get(notes.size() - 1).startsWith("old primary rebuilt as the new standby"), notes.toString());
        assertEquals(before, servers.standby().orElseThrow().port());
        assertEquals(1, primary().scalarLong("SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'"));
        assertHealthy();
    }

    @Test
    @Order(9)
    void theSystemSaysWhatItCannotTake() {
        SystemUnderTest remote = new SystemUnderTest(new ConnectionSettings(LocalPostgres.class.getName(), "u", null),
                "bench", null, null);
        assertTrue(remote.cannotTake(DisruptionKind.Need.SQL).isEmpty());
        assertTrue(remote.cannotTake(DisruptionKind.Need.SERVER_PROCESSES).orElseThrow()
                .contains("with --url only SQL-level disruptions, network faults and commands run"));
        assertTrue(remote.cannotTake(DisruptionKind.Need.TOXIPROXY).isPresent());
        assertTrue(system.cannotTake(DisruptionKind.Need.STANDBY).isEmpty());
    }
}

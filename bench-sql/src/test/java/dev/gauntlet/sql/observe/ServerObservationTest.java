package dev.gauntlet.sql.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.Await;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.SqlTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server's CPU from /proc and its wait events from pg_stat_activity, read from the shared test PostgreSQL
 * ({@link SqlTestServer}) on a database of this class's own, so only its sessions are sampled.
 */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class ServerObservationTest {

    private static SqlTestServer db;
    private static ConnectionSettings settings;

    @BeforeAll
    static void database() {
        db = SqlTestServer.shared().freshDatabase("observed");
        settings = db.settings();
    }

    @Test
    void serverCpuCountsWorkDoneByBackendsThatHaveSinceExited() throws Exception {
        Optional<ServerCpu> located = ServerCpu.locate(settings);
        if (located.isEmpty()) {
            db.assumeEmbedded("the server's CPU is read from its processes, which must run on this machine");
        }
        ServerCpu cpu = located.orElseThrow(() -> new AssertionError("the local server's postmaster"));
        long before = cpu.read();
        // About a second of CPU in a session that then ends: its time must survive in the postmaster's cutime.
        long backend;
        try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement()) {
            backend = SqlTestServer.scalarLong(c, "SELECT pg_backend_pid()");
            s.execute("SELECT count(*) FROM generate_series(1, 3000000) g WHERE md5(g::text) LIKE 'a%'");
        }
        // The kernel adds an exited child's CPU to its parent's cutime when the parent reaps it, which is also
        // when its /proc entry (a zombie's until then) goes.
        Path process = Path.of("/proc/" + backend);
        Await.until(Duration.ofSeconds(30), "the postmaster to reap backend " + backend, () -> !Files.exists(process));
        long after = cpu.read();
        assertTrue(after - before >= 300_000_000L, "at least 0.3 s of server CPU: " + (after - before) + " ns");
        assertEquals(ServerCpu.NAME, cpu.name());
    }

    @Test
    void roundTripsAreCountedOnTheWireOfSessionConnectionsOnly() throws Exception {
        RoundTrips trips = new RoundTrips();
        try (Connection c = settings.connect()) {
            c.setAutoCommit(false);
            long before = trips.read();
            for (int i = 0; i < 10; i++) {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT " + i);
                }
            }
            c.commit();
            assertEquals(11, trips.read() - before, "ten statements (BEGIN rides with the first) and a COMMIT");
        }
        try (Connection admin = settings.connectForAdmin(); Statement s = admin.createStatement()) {
            long before = trips.read();
            s.execute("SELECT 1");
            assertEquals(before, trips.read(), "administration is not counted");
        }
    }

    @Test
    void aServerThatIsNotOnThisMachineHasNoCpuFigure() {
        ConnectionSettings nowhere = new ConnectionSettings("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=1",
                "nobody", null);
        assertEquals(Optional.empty(), ServerCpu.locate(nowhere));
    }

    @Test
    void waitEventsCountActiveSessionsByWhatTheyWaitOn() throws Exception {
        Map<String, Long> total = new HashMap<>();
        try (WaitEvents waits = WaitEvents.start(settings); Connection c = settings.connectForAdmin();
             Statement s = c.createStatement()) {
            s.execute("SELECT pg_sleep(1.5)");
            waits.sample().forEach((k, v) -> total.merge(k, v, Long::sum));
        }
        Long sleeping = total.get(WaitEvents.PREFIX + "Timeout:PgSleep");
        assertTrue(sleeping != null && sleeping >= 8 && sleeping <= 16,
                "about 15 samples of one session in pg_sleep at 10 a second: " + total);
        assertNull(total.get(WaitEvents.PREFIX + "Client:ClientRead"), "idle sessions are not counted: " + total);
    }

    @Test
    void theOldestSnapshotIsTheAgeOfTheTransactionThatHoldsIt() throws Exception {
        PostgresGauges gauges = new PostgresGauges(settings, List.of("%"));
        try (Connection holder = settings.connect()) {
            assertTrue(gauges.sample().get(PostgresGauges.OLDEST_SNAPSHOT) < 1_000, "no session holds a snapshot yet");
            holder.setAutoCommit(false);
            holder.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement s = holder.createStatement()) {
                s.execute("SELECT 1"); // the transaction's snapshot, held until it ends
            }
            Thread.sleep(1_500);
            long held = gauges.sample().get(PostgresGauges.OLDEST_SNAPSHOT);
            assertTrue(held >= 1_400, "a snapshot held 1.5 s: " + held + " ms");
            holder.commit();
            long after = gauges.sample().get(PostgresGauges.OLDEST_SNAPSHOT);
            assertTrue(after < 1_000, "none held once the transaction ends: " + after + " ms");
        } finally {
            gauges.close();
        }
    }

    @Test
    void aSampleAfterTheLastHoldsOnlyWhatCameSince() {
        try (WaitEvents waits = WaitEvents.start(settings)) {
            waits.sample();
            Map<String, Long> next = waits.sample();
            assertTrue(next.values().stream().allMatch(v -> v <= 1), "nothing ran in between: " + next);
        }
    }
}

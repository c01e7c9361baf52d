package dev.gauntlet.sql.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.server.LocalPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The server's CPU from /proc and its wait events from pg_stat_activity, read from a real PostgreSQL. */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
class ServerObservationTest {

    @TempDir
    static Path temp;

    private static LocalPostgres pg;
    private static ConnectionSettings settings;

    @BeforeAll
    static void startPostgres() {
        pg = LocalPostgres.builder().dataDirectory(temp.resolve("data")).build().start();
        pg.createDatabaseIfAbsent("observed");
        settings = new ConnectionSettings(pg.jdbcUrl("observed"), pg.user(), null);
    }

    @AfterAll
    static void stopPostgres() {
        if (pg != null) {
            pg.close();
        }
    }

    @Test
    void serverCpuCountsWorkDoneByBackendsThatHaveSinceExited() throws Exception {
        ServerCpu cpu = ServerCpu.locate(settings).orElseThrow(() -> new AssertionError("the local server's postmaster"));
        long before = cpu.read();
        // About a second of CPU in a session that then ends: its time must survive in the postmaster's cutime.
        try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement()) {
            s.execute("SELECT count(*) FROM generate_series(1, 3000000) g WHERE md5(g::text) LIKE 'a%'");
        }
        Thread.sleep(300); // let the postmaster reap the backend
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
    void aSampleAfterTheLastHoldsOnlyWhatCameSince() {
        try (WaitEvents waits = WaitEvents.start(settings)) {
            waits.sample();
            Map<String, Long> next = waits.sample();
            assertTrue(next.values().stream().allMatch(v -> v <= 1), "nothing ran in between: " + next);
        }
    }
}

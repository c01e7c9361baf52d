package dev.gauntlet.sql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.Await;
import dev.gauntlet.sql.SqlTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts real PostgreSQL servers from zonky's binaries (as user nobody when the JVM is root). Each test uses its
 * own data directory under @TempDir and the shared binaries cache, so only the first test pays for unpacking. What
 * is tested is the server's life (start, restart, stop, crash), so no test uses the shared {@link SqlTestServer}:
 * each starts its own, with the shared helpers.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class LocalPostgresTest {

    @TempDir
    Path temp;

    @Test
    void startsAndAnswersOnLocalhost() throws SQLException {
        try (LocalPostgres pg = SqlTestServer.ownServer(temp.resolve("data")).start()) {
            assertTrue(pg.version().startsWith("PostgreSQL "), pg.version());
            assertEquals("jdbc:postgresql://localhost:" + pg.port() + "/postgres", pg.jdbcUrl("postgres"));
            assertEquals("psql -h localhost -p " + pg.port() + " -U postgres bench", pg.psqlCommand("bench"));
            assertEquals("postgres", pg.user());
            assertFalse(pg.attached());
            try (Connection c = pg.connect("postgres")) {
                assertEquals(pg.version(), SqlTestServer.scalar(c, "select version()"));
                assertEquals("postgres", SqlTestServer.scalar(c, "select current_user"));
                assertEquals("UTF8", SqlTestServer.scalar(c, "show server_encoding"));
                assertEquals("on", SqlTestServer.scalar(c, "show fsync"));
                assertEquals("256MB", SqlTestServer.scalar(c, "show shared_buffers"));
                assertEquals("300", SqlTestServer.scalar(c, "show max_connections"));
                assertEquals("256", SqlTestServer.scalar(c, "show max_pred_locks_per_transaction"));
                assertEquals("", SqlTestServer.scalar(c, "show unix_socket_directories"));
            }
            assertTrue(Files.isRegularFile(pg.logFile()), "server log in the data directory");
        }
    }

    @Test
    void callerSettingsReachTheServerVerbatim() throws SQLException {
        LocalPostgres pg = LocalPostgres.builder()
                .dataDirectory(temp.resolve("data"))
                .setting("work_mem", "8MB")
                .setting("log_line_prefix", "%m [%p] it's $HOME ")
                .build();
        try (pg) {
            pg.start();
            try (Connection c = pg.connect("postgres")) {
                assertEquals("8MB", SqlTestServer.scalar(c, "show work_mem"));
                assertEquals("%m [%p] it's $HOME ", SqlTestServer.scalar(c, "show log_line_prefix"));
            }
        }
    }

    @Test
    void restartKeepsDataAndPort() throws SQLException {
        try (LocalPostgres pg = SqlTestServer.ownServer(temp.resolve("data")).start()) {
            int port = pg.port();
            pg.createDatabaseIfAbsent("bench");
            pg.createDatabaseIfAbsent("bench");
            SqlTestServer.of(pg, "bench").execute("create table t (id int primary key)", "insert into t values (1)");

            pg.restart(false);
            assertEquals(port, pg.port());
            SqlTestServer.of(pg, "bench").execute("insert into t values (2)");

            pg.restart(true);
            assertEquals(port, pg.port());
            try (Connection c = pg.connect("bench")) {
                assertEquals("2", SqlTestServer.scalar(c, "select count(*) from t"));
            }
        }
    }

    @Test
    void dataDirectoryIsReusedAcrossStarts() throws SQLException {
        Path data = temp.resolve("data");
        try (LocalPostgres pg = SqlTestServer.ownServer(data).start()) {
            SqlTestServer.of(pg, "postgres").execute("create table kept (id int)", "insert into kept values (42)");
        }
        try (LocalPostgres pg = SqlTestServer.ownServer(data).start()) {
            try (Connection c = pg.connect("postgres")) {
                assertEquals("42", SqlTestServer.scalar(c, "select id from kept"));
            }
        }
    }

    @Test
    void freshDiscardsEarlierData() throws SQLException {
        Path data = temp.resolve("data");
        try (LocalPostgres pg = SqlTestServer.ownServer(data).start()) {
            SqlTestServer.of(pg, "postgres").execute("create table gone (id int)");
        }
        try (LocalPostgres pg = LocalPostgres.builder().dataDirectory(data).fresh(true).build().start()) {
            try (Connection c = pg.connect("postgres")) {
                assertEquals("0", SqlTestServer.scalar(c, "select count(*) from pg_class where relname = 'gone'"));
            }
        }
    }

    @Test
    void freshRefusesToDeleteAFolderThatIsNotADataDirectory() throws Exception {
        Path precious = Files.createDirectories(temp.resolve("notes"));
        Files.writeString(precious.resolve("thesis.txt"), "years of work");
        LocalPostgres pg = LocalPostgres.builder().dataDirectory(precious).fresh(true).build();
        LocalPostgresException e = assertThrows(LocalPostgresException.class, pg::start);
        assertTrue(e.getMessage().contains("not a PostgreSQL data directory"), e.getMessage());
        assertTrue(Files.exists(precious.resolve("thesis.txt")));
    }

    @Test
    void secondInstanceAttachesToTheRunningServerAndLeavesItRunning() throws SQLException {
        Path data = temp.resolve("data");
        try (LocalPostgres first = SqlTestServer.ownServer(data).start()) {
            try (LocalPostgres second = SqlTestServer.ownServer(data).start()) {
                assertTrue(second.attached());
                assertEquals(first.port(), second.port());
                assertEquals(first.version(), second.version());
                assertThrows(IllegalStateException.class, () -> second.restart(false));
            }
            try (Connection c = first.connect("postgres")) {
                assertEquals("1", SqlTestServer.scalar(c, "select 1"));
            }
            assertThrows(LocalPostgresException.class,
                    () -> LocalPostgres.builder().dataDirectory(data).fresh(true).build().start());
        }
    }

    @Test
    void startsAfterThePostmasterWasKilled() throws Exception {
        Path data = temp.resolve("data");
        LocalPostgres crashed = SqlTestServer.ownServer(data).start();
        SqlTestServer.of(crashed, "postgres").execute("create table survivor (id int)",
                "insert into survivor values (7)");
        long pid = PostmasterPid.read(data).orElseThrow().pid();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Await.until(Duration.ofSeconds(10), "the killed postmaster " + pid + " to be gone",
                () -> !PostmasterPid.read(data).orElseThrow().isRunning(data));
        assertTrue(Files.exists(data.resolve("postmaster.pid")), "the kill left a stale lock file");

        try (LocalPostgres pg = SqlTestServer.ownServer(data).start()) {
            assertFalse(pg.attached());
            try (Connection c = pg.connect("postgres")) {
                assertEquals("7", SqlTestServer.scalar(c, "select id from survivor"));
            }
        }
        crashed.stop(); // its server is gone; stop must cope
    }

    @Test
    void stopIsIdempotent() {
        LocalPostgres pg = SqlTestServer.ownServer(temp.resolve("data"));
        pg.stop();
        pg.start();
        pg.stop();
        pg.stop();
        pg.close();
        assertThrows(IllegalStateException.class, pg::port);
        assertFalse(PostmasterPid.read(temp.resolve("data")).isPresent(), "server stopped");
    }

    @Test
    void badSettingFailsWithOneLineThatQuotesTheServerLog() {
        LocalPostgres pg = LocalPostgres.builder()
                .dataDirectory(temp.resolve("data"))
                .setting("shared_buffers", "plenty")
                .build();
        LocalPostgresException e = assertThrows(LocalPostgresException.class, pg::start);
        assertTrue(e.getMessage().contains("did not start"), e.getMessage());
        assertTrue(e.getMessage().contains("shared_buffers"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        pg.stop();
    }

    @Test
    void binariesAreUnpackedOnceEvenWhenProcessesRace() throws Exception {
        Path cache = temp.resolve("cache");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Callable<PostgresBinaries> unpack = () -> PostgresBinaries.unpackedUnder(cache);
            List<Future<PostgresBinaries>> results = pool.invokeAll(List.of(unpack, unpack));
            Path home = results.get(0).get().home();
            assertEquals(home, results.get(1).get().home());
            assertTrue(Files.isExecutable(home.resolve("bin/postgres")));
            assertTrue(results.get(0).get().version().matches("\\d+\\.\\d+"), results.get(0).get().version());
            try (var entries = Files.list(cache.resolve("binaries"))) {
                assertEquals(List.of(home), entries.toList(), "no staging folders left behind");
            }
            long modified = Files.getLastModifiedTime(home).toMillis();
            assertEquals(home, PostgresBinaries.unpackedUnder(cache).home());
            assertEquals(modified, Files.getLastModifiedTime(home).toMillis(), "reused, not unpacked again");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void defaultCacheDirectoryIsOutsideRootsHome() {
        Path cache = LocalPostgres.defaultCacheDirectory();
        if (ServerAccount.isRoot()) {
            assertEquals(Path.of("/var/tmp/gauntlet"), cache);
        } else {
            assertNotEquals(Path.of("/var/tmp/gauntlet"), cache);
            assertTrue(cache.endsWith("gauntlet"), cache.toString());
        }
    }
}

package dev.gauntlet.sql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.Await;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.SqlTestServer;
import dev.gauntlet.sql.cli.ConnectionOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;
import picocli.CommandLine;

/**
 * Starts real PgBouncers (as user nobody when the JVM is root) in front of the shared test PostgreSQL
 * ({@link SqlTestServer}), each test on a database of its own; the one that rewrites pg_hba.conf starts a server of
 * its own. Skipped where pgbouncer is not installed, except what needs no process.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class PgBouncerTest {

    @TempDir
    Path temp;

    /** A database of the test's own, so no other test's connections show up in pg_stat_activity. */
    private static SqlTestServer database(String name) {
        return SqlTestServer.shared().freshDatabase(name);
    }

    private static void assumeInstalled() {
        Assumptions.assumeTrue(PgBouncer.binary().isPresent(), "pgbouncer is not installed (apt-get install pgbouncer)");
    }

    @Test
    void aTransactionThroughPgBouncerCommitsAndIsVisibleDirectly() throws SQLException {
        assumeInstalled();
        SqlTestServer db = database("committed");
        db.execute("create table t (id int primary key, note text)");
        try (PgBouncer bouncer = PgBouncer.start(db.settings(), 2, 10, JdbcTarget.DEFAULT_ISOLATION)) {
            assertTrue(bouncer.version().matches("\\d+\\.\\d+.*"), bouncer.version());
            assertEquals("jdbc:postgresql://127.0.0.1:" + bouncer.port() + "/committed?prepareThreshold=0",
                    bouncer.settings().url());
            assertEquals(db.user(), bouncer.settings().user());
            try (Connection c = bouncer.settings().connect()) {
                assertEquals(0, c.unwrap(PGConnection.class).getPrepareThreshold(), "no server-side statements");
                c.setAutoCommit(false);
                // More executions than pgjdbc's default prepareThreshold of 5: still no named statements.
                try (PreparedStatement insert = c.prepareStatement("insert into t values (?, ?)")) {
                    for (int i = 1; i <= 8; i++) {
                        insert.setInt(1, i);
                        insert.setString(2, "row " + i);
                        insert.executeUpdate();
                    }
                }
                assertEquals("read committed", SqlTestServer.scalar(c, "show transaction_isolation"));
                c.commit();
            }
            assertEquals("8", db.scalar("select count(*) from t"));
            assertEquals("row 8", db.scalar("select note from t where id = 8"));
        }
    }

    @Test
    void everyServerConnectionRunsAtTheIsolationAsked() throws Exception {
        assumeInstalled();
        ConnectionSettings server = database("isolated").settings();
        try (JdbcTarget target = PgBouncer.target(server, 2, 10, Connection.TRANSACTION_REPEATABLE_READ)) {
            PgBouncer bouncer = target.owned(PgBouncer.class).orElseThrow();
            // Clients at once, more than the pool holds, so both server connections serve someone.
            List<Connection> sessions = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    sessions.add(target.open());
                }
                for (Connection c : sessions) {
                    assertFalse(c.getAutoCommit());
                    assertEquals("repeatable read", SqlTestServer.scalar(c, "show transaction_isolation"));
                    c.commit();
                }
            } finally {
                sessions.forEach(c -> target.release(c, false));
            }
            String config = Files.readString(bouncer.directory().resolve("pgbouncer.ini"));
            assertTrue(config.contains("connect_query='SET default_transaction_isolation = ''repeatable read'''"),
                    config);
            assertTrue(bouncer.toString().contains("127.0.0.1:" + bouncer.port()), bouncer.toString());
        }
    }

    @Test
    void moreClientsThanThePoolShareItsServerConnections() throws Exception {
        assumeInstalled();
        SqlTestServer db = database("crowd");
        db.execute("create table hits (client int, n int)");
        int clients = 20;
        int poolSize = 2;
        AtomicInteger mostBackends = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(clients + 1);
        try (PgBouncer bouncer = PgBouncer.start(db.settings(), poolSize, clients, JdbcTarget.DEFAULT_ISOLATION);
                Connection watcher = SqlTestServer.shared().connect()) {
            Future<?> sampler = threads.submit(() -> {
                while (running.get()) {
                    int backends = Integer.parseInt(SqlTestServer.scalar(watcher, "select count(*) "
                            + "from pg_stat_activity where datname = 'crowd' and backend_type = 'client backend'"));
                    mostBackends.accumulateAndGet(backends, Math::max);
                    Thread.sleep(10);
                }
                return null;
            });
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                work.add(threads.submit(() -> {
                    try (Connection c = bouncer.settings().connect()) {
                        c.setAutoCommit(false);
                        for (int n = 0; n < 5; n++) {
                            try (PreparedStatement s = c.prepareStatement(
                                    "insert into hits select ?, ? from pg_sleep(0.01)")) {
                                s.setInt(1, client);
                                s.setInt(2, n);
                                s.executeUpdate();
                            }
                            c.commit();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
            running.set(false);
            sampler.get();
        } finally {
            threads.shutdownNow();
        }
        assertEquals("100", db.scalar("select count(*) from hits"));
        assertEquals("20", db.scalar("select count(distinct client) from hits"));
        assertTrue(mostBackends.get() >= 1 && mostBackends.get() <= poolSize,
                "server connections seen at once: " + mostBackends.get());
    }

    @Test
    void closeStopsPgBouncerAndDeletesItsDirectory() throws Exception {
        assumeInstalled();
        PgBouncer bouncer = PgBouncer.start(database("closing").settings(), 1, 1, JdbcTarget.DEFAULT_ISOLATION);
        Path directory = bouncer.directory();
        int port = bouncer.port();
        assertTrue(accepts(port));
        assertTrue(Files.isRegularFile(bouncer.logFile()));
        bouncer.close();
        assertFalse(accepts(port), "port " + port + " still accepts connections");
        assertFalse(Files.exists(directory), directory + " is left behind");
        bouncer.close();
    }

    @Test
    void closingTheTargetStopsItsPgBouncer() throws Exception {
        assumeInstalled();
        ConnectionSettings closing = database("closing").settings();
        JdbcTarget target = PgBouncer.target(closing, 1, 1, JdbcTarget.DEFAULT_ISOLATION);
        PgBouncer bouncer = target.owned(PgBouncer.class).orElseThrow();
        target.close();
        assertFalse(accepts(bouncer.port()));
        assertFalse(Files.exists(bouncer.directory()));
        assertTrue(JdbcTarget.direct(closing).owned(PgBouncer.class).isEmpty());
    }

    /**
     * The server asks this user for a SCRAM password, so PgBouncer can only log in with the one in its auth file;
     * the password is nowhere else in PgBouncer's directory, and clients of PgBouncer need none. The test rewrites
     * the server's pg_hba.conf, so it runs on a server of its own.
     */
    @Test
    void theServerPasswordLivesOnlyInTheAuthFile() throws Exception {
        assumeInstalled();
        String password = "s3cret \"quoted\" it's";
        try (LocalPostgres pg = SqlTestServer.ownServer(temp.resolve("data")).start()) {
            pg.createDatabaseIfAbsent("guarded");
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                s.execute("create role guard login password '" + password.replace("'", "''") + "'");
                s.execute("grant all on database guarded to guard");
            }
            Path hba = pg.dataDirectory().resolve("pg_hba.conf");
            Files.writeString(hba, "host all guard 127.0.0.1/32 scram-sha-256\nhost all guard ::1/128 scram-sha-256\n"
                    + Files.readString(hba));
            SqlTestServer.of(pg, "postgres").execute("select pg_reload_conf()");
            ConnectionSettings wrong = new ConnectionSettings(pg.jdbcUrl("guarded"), "guard", "wrong");
            Await.until(Duration.ofSeconds(10), "the reloaded pg_hba.conf to refuse guard a wrong password", () -> {
                try (Connection c = wrong.connect()) {
                    return false;
                } catch (SQLException e) {
                    return true;
                }
            });

            ConnectionSettings server = new ConnectionSettings(pg.jdbcUrl("guarded"), "guard", password);
            try (PgBouncer bouncer = PgBouncer.start(server, 1, 2, JdbcTarget.DEFAULT_ISOLATION)) {
                ConnectionSettings client = new ConnectionSettings(bouncer.settings().url(), "guard", null);
                try (Connection c = client.connect()) {
                    assertEquals("guard", SqlTestServer.scalar(c, "select current_user"));
                }
                Path auth = bouncer.directory().resolve("userlist.txt");
                assertEquals("\"guard\" \"s3cret \"\"quoted\"\" it's\"\n", Files.readString(auth));
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(auth)));
                if (ServerAccount.isRoot()) {
                    assertEquals("nobody", Files.getOwner(auth).getName());
                }
                try (var files = Files.list(bouncer.directory())) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        if (!f.equals(auth)) {
                            assertFalse(Files.readString(f, StandardCharsets.UTF_8).contains("s3cret"), f.toString());
                        }
                    }
                }
                assertFalse(bouncer.toString().contains("s3cret"));
            }
        }
    }

    @Test
    void connectionOptionsStartPgBouncerAndSayItInOneLine() throws Exception {
        assumeInstalled();
        SqlTestServer server = database("announced");
        List<String> args = new ArrayList<>(List.of("--url", server.url(), "--pool", "pgbouncer", "--pool-size", "3"));
        if (server.user() != null) {
            args.addAll(List.of("--user", server.user()));
        }
        if (server.password() != null) {
            args.addAll(List.of("--password", server.password()));
        }
        ConnectionOptions options = new ConnectionOptions();
        new CommandLine(options).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args.toArray(String[]::new));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        try (Database db = options.open("announced", out);
                JdbcTarget target = options.target(db, PoolMode.PGBOUNCER, Connection.TRANSACTION_SERIALIZABLE, 5)) {
            PgBouncer bouncer = target.owned(PgBouncer.class).orElseThrow();
            String text = printed.toString(StandardCharsets.UTF_8);
            assertTrue(text.endsWith("PgBouncer " + bouncer.version() + " in transaction mode on 127.0.0.1:"
                    + bouncer.port() + ", pool size 3" + System.lineSeparator()), text);
            Connection c = target.open();
            try {
                assertEquals("serializable", SqlTestServer.scalar(c, "show transaction_isolation"));
            } finally {
                target.release(c, false);
            }
            String config = Files.readString(bouncer.directory().resolve("pgbouncer.ini"));
            assertTrue(config.contains("\nmax_client_conn = 15\n") && config.contains("\ndefault_pool_size = 3\n")
                    && config.contains("\nmax_db_connections = 3\n"), config);
        }
    }

    @Test
    void aMultiHostUrlIsRefusedInOneLine() {
        ConnectionSettings cluster = new ConnectionSettings(
                "jdbc:postgresql://n1:26257,n2:26257/tpcc?targetServerType=primary", "root", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PgBouncer.start(cluster, 2, 10, JdbcTarget.DEFAULT_ISOLATION));
        assertEquals("PgBouncer sits in front of one server, not the several hosts of a multi-host URL; "
                + "give --url a single host", e.getMessage());
    }

    @Test
    void aUrlWithoutADatabaseIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PgBouncer.start(
                new ConnectionSettings("jdbc:postgresql://db1:5432/", "u", null), 2, 10, JdbcTarget.DEFAULT_ISOLATION));
        assertEquals("PgBouncer needs a jdbc:postgresql://HOST:PORT/DATABASE URL", e.getMessage());
    }

    @Test
    void theServerUrlGivesHostPortDatabaseAndAnyUserAndPasswordInIt() {
        PgBouncer.ServerUrl plain = PgBouncer.ServerUrl.parse("jdbc:postgresql://db1:6543/bench?sslmode=require");
        assertEquals(new PgBouncer.ServerUrl("db1", 6543, "bench", null, null), plain);
        PgBouncer.ServerUrl v6 = PgBouncer.ServerUrl.parse("jdbc:postgresql://[::1]/my%24db?user=u&password=p%26q");
        assertEquals(new PgBouncer.ServerUrl("::1", 5432, "my$db", "u", "p&q"), v6);
        assertEquals("::1:5432/my$db", v6.toString(), "no password");
        assertThrows(IllegalArgumentException.class, () -> PgBouncer.ServerUrl.parse("jdbc:mysql://db1/bench"));
    }

    @Test
    void thePooledTargetTurnsServerSidePreparedStatementsOff() throws SQLException {
        try (JdbcTarget target = JdbcTarget.pooled(database("pooled").settings(), 1)) {
            Connection c = target.open();
            try {
                assertEquals(0, c.unwrap(PGConnection.class).getPrepareThreshold());
            } finally {
                target.release(c, false);
            }
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

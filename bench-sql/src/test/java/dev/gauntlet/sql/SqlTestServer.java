package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.TemporaryPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL that bench-sql's database tests share, and the helpers they all use on it and on servers of their
 * own. bench-testing's {@code PostgresExtension} cannot serve here (bench-testing depends on bench-sql), so this
 * follows its conventions: the server named by {@value #URL_VARIABLE} (with {@value #USER_VARIABLE} and
 * {@value #PASSWORD_VARIABLE}) if set, else an embedded {@link LocalPostgres} on a temporary data directory with a
 * database {@code gauntlet_test}; one per test JVM, started on first use ({@link #shared()}), reused by every test
 * class, and stopped (its directory deleted) by a shutdown hook when the JVM ends. A failed start is remembered, so
 * every later test fails at once with the same cause instead of retrying a slow start.
 *
 * <p>An instance is one database on one server. A test class that needs isolation (its own tables, its own
 * {@code pg_stat_activity}) takes a database of its own:
 *
 * <pre>{@code
 * static SqlTestServer db;
 *
 * @BeforeAll
 * static void database() {
 *     db = SqlTestServer.shared().freshDatabase("observed");
 * }
 * }</pre>
 *
 * Tests that stop, kill, freeze or reconfigure a server start one of their own ({@link #ownServer(Path)},
 * {@code ReplicatedPostgres}) and use the same helpers on it through {@link #of(LocalPostgres, String)},
 * {@link #of(ConnectionSettings)} or the static {@link #scalar(Connection, String)},
 * {@link #execute(Connection, String...)} and {@link #connect(String, Duration)}.
 */
public final class SqlTestServer {

    public static final String URL_VARIABLE = "BENCH_TEST_JDBC_URL";
    public static final String USER_VARIABLE = "BENCH_TEST_USER";
    public static final String PASSWORD_VARIABLE = "BENCH_TEST_PASSWORD";
    /** The superuser of every embedded server. */
    public static final String SUPERUSER = "postgres";
    /** {@link #processState} of a process that has exited (and been reaped). */
    public static final char GONE = '-';

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String EMBEDDED_DATABASE = "gauntlet_test";
    /** The database every PostgreSQL server has, where an embedded one's databases are created and dropped. */
    private static final String MAINTENANCE_DATABASE = "postgres";

    private static SqlTestServer shared;
    private static RuntimeException sharedFailure;

    private final ConnectionSettings settings;
    private final String database;
    /** Where {@link #freshDatabase} connects to drop and create. */
    private final String adminDatabase;
    /** The server when it is an embedded one this JVM runs, else null. */
    private final LocalPostgres local;

    private SqlTestServer(ConnectionSettings settings, String database, String adminDatabase, LocalPostgres local) {
        this.settings = settings;
        this.database = database;
        this.adminDatabase = adminDatabase;
        this.local = local;
    }

    /** The default database of the server this JVM's tests share, started on first use. */
    public static synchronized SqlTestServer shared() {
        if (sharedFailure != null) {
            throw sharedFailure;
        }
        if (shared == null) {
            try {
                shared = startShared();
            } catch (RuntimeException e) {
                sharedFailure = new IllegalStateException("no PostgreSQL for tests: " + e.getMessage(), e);
                throw sharedFailure;
            }
        }
        return shared;
    }

    private static SqlTestServer startShared() {
        String url = System.getenv(URL_VARIABLE);
        if (url != null && !url.isBlank()) {
            String database = JdbcUrl.databaseOf(url.trim());
            return new SqlTestServer(new ConnectionSettings(url.trim(), System.getenv(USER_VARIABLE),
                    System.getenv(PASSWORD_VARIABLE)), database, database, null);
        }
        TemporaryPostgres temporary = TemporaryPostgres.start("gauntlet-sql-test-postgres-", EMBEDDED_DATABASE);
        // Stopped when the JVM ends, also when it is interrupted (Ctrl-C in mvn test): the server runs in a
        // session of its own and would outlive it.
        Runtime.getRuntime().addShutdownHook(new Thread(temporary::close, "gauntlet-sql-test-postgres-stop"));
        LocalPostgres postgres = temporary.server();
        return of(postgres, EMBEDDED_DATABASE);
    }

    /** Database {@code database} on an embedded server (started) of the test's own; creates nothing. */
    public static SqlTestServer of(LocalPostgres server, String database) {
        return new SqlTestServer(new ConnectionSettings(server.jdbcUrl(database), server.user(), null), database,
                MAINTENANCE_DATABASE, server);
    }

    /** The database {@code settings} name, on whatever server runs it. */
    public static SqlTestServer of(ConnectionSettings settings) {
        String database = JdbcUrl.databaseOf(settings.url());
        return new SqlTestServer(settings, database, database, null);
    }

    /** An embedded server of the test's own on {@code dataDirectory}, with the defaults; not started yet. */
    public static LocalPostgres ownServer(Path dataDirectory) {
        return LocalPostgres.builder().dataDirectory(dataDirectory).build();
    }

    public ConnectionSettings settings() {
        return settings;
    }

    public String url() {
        return settings.url();
    }

    public String user() {
        return settings.user();
    }

    /** May be null (embedded servers trust localhost). */
    public String password() {
        return settings.password();
    }

    public String database() {
        return database;
    }

    /** The embedded server behind this database, if it is one this JVM runs. */
    public Optional<LocalPostgres> local() {
        return Optional.ofNullable(local);
    }

    /**
     * Aborts the calling test (reported as skipped, with the reason) unless the server is an embedded one this JVM
     * runs; {@code needs} says why it must be, e.g. "reading the server's CPU needs its processes here".
     */
    public void assumeEmbedded(String needs) {
        if (local == null) {
            Assumptions.abort(needs + "; this run uses the server at " + URL_VARIABLE
                    + " (unset it for the embedded PostgreSQL)");
        }
    }

    /**
     * Drops database {@code name} on this server if it exists (ending its sessions) and creates it empty. Names are
     * lower-case letters, digits and underscores so they need no quoting.
     */
    public SqlTestServer freshDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("test database names are lower-case letters, digits and '_': " + name);
        }
        ConnectionSettings admin = new ConnectionSettings(JdbcUrl.withDatabase(url(), adminDatabase), user(), password());
        try (Connection c = admin.connectForAdmin()) {
            try (PreparedStatement end = c.prepareStatement("select pg_terminate_backend(pid) from pg_stat_activity "
                    + "where datname = ? and pid <> pg_backend_pid()")) {
                end.setString(1, name);
                end.execute();
            }
            execute(c, "drop database if exists " + name, "create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not recreate test database " + name + " on " + admin + ": "
                    + e.getMessage(), e);
        }
        return new SqlTestServer(new ConnectionSettings(JdbcUrl.withDatabase(url(), name), user(), password()), name,
                adminDatabase, local);
    }

    /**
     * Creates login role {@code role} (dropped first if it exists) with {@code password}, and has the server ask it
     * for that password: a scram-sha-256 rule for this role alone, put first in pg_hba.conf (the server's other users
     * are still trusted), for tests of what a wrong password does. Returns once the server refuses the role a wrong
     * password. Needs a superuser (pg_hba.conf is written through SQL, so a server at {@value #URL_VARIABLE} will
     * do); the calling test is skipped otherwise.
     */
    public void passwordRole(String role, String password) throws Exception {
        if (!DATABASE_NAME.matcher(role).matches()) {
            throw new IllegalArgumentException("test role names are lower-case letters, digits and '_': " + role);
        }
        try (Connection c = connect(); Statement s = c.createStatement()) {
            if (!"t".equals(scalar(c, "select rolsuper from pg_roles where rolname = current_user"))) {
                Assumptions.abort("needs a superuser to add a password rule to pg_hba.conf");
            }
            s.execute("drop role if exists " + role);
            s.execute("create role " + role + " login password '" + password.replace("'", "''") + "'");
            String hba = scalar(c, "select pg_read_file(current_setting('hba_file'))");
            if (!hba.contains(" " + role + " ")) {
                String rules = "host all " + role + " 127.0.0.1/32 scram-sha-256\n"
                        + "host all " + role + " ::1/128 scram-sha-256\n";
                // COPY's text format would write a tab as \t; pg_hba.conf takes spaces as well.
                s.execute("copy (select unnest(string_to_array($hba$" + (rules + hba).replace('\t', ' ')
                        + "$hba$, E'\\n'))) to '" + scalar(c, "show hba_file").replace("'", "''") + "'");
                s.execute("select pg_reload_conf()");
            }
        }
        ConnectionSettings wrong = new ConnectionSettings(url(), role, password + "-wrong");
        Await.until(Duration.ofSeconds(10), "the reloaded pg_hba.conf to refuse " + role + " a wrong password", () -> {
            try (Connection c = wrong.connectForAdmin()) {
                return false;
            } catch (SQLException e) {
                return true;
            }
        });
    }

    /** A new connection for administration and checks (auto-commit, long socket timeout); the caller closes it. */
    public Connection connect() throws SQLException {
        return settings.connectForAdmin();
    }

    /** The first column of the first row {@code sql} returns, as text; fails if it returns no row. */
    public String scalar(String sql) throws SQLException {
        try (Connection c = connect()) {
            return scalar(c, sql);
        }
    }

    /** {@link #scalar(String)} as a number (a count, a pid). */
    public long scalarLong(String sql) throws SQLException {
        try (Connection c = connect()) {
            return scalarLong(c, sql);
        }
    }

    /** Runs the statements in order, each on its own (auto-commit). */
    public void execute(String... statements) throws SQLException {
        try (Connection c = connect()) {
            execute(c, statements);
        }
    }

    /** The first column of the first row {@code sql} returns on {@code c}, as text; fails if there is no row. */
    public static String scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    /** {@link #scalar(Connection, String)} as a number. */
    public static long scalarLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }

    public static void execute(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /**
     * A connection to {@code url} (say a {@code ReplicatedPostgres} multi-host URL) as the embedded servers'
     * superuser: connect timeout 10 s, reads waiting at most {@code socketTimeout} ({@link Duration#ZERO}: for ever).
     */
    public static Connection connect(String url, Duration socketTimeout) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SUPERUSER);
        p.setProperty("connectTimeout", "10");
        p.setProperty("socketTimeout", Long.toString(socketTimeout.toSeconds()));
        return DriverManager.getConnection(url, p);
    }

    /** The state letter of a process in {@code /proc} ('T' stopped, 'S' sleeping...), or {@link #GONE}. */
    public static char processState(long pid) throws IOException {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (NoSuchFileException exited) {
            return GONE;
        }
    }

    @Override
    public String toString() {
        return "SqlTestServer[" + (local != null ? "embedded " : "") + settings + "]";
    }
}

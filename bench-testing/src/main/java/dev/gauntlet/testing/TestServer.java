package dev.gauntlet.testing;

import dev.gauntlet.sql.JdbcUrl;
import dev.gauntlet.sql.server.LocalPostgres;
import dev.gauntlet.sql.server.TemporaryPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL server the tests of one JVM share: a server named by environment variables, a Testcontainers
 * container, or an embedded {@link LocalPostgres} on a temporary data directory, tried in that order.
 */
final class TestServer implements AutoCloseable {

    static final String URL_VARIABLE = "BENCH_TEST_JDBC_URL";
    static final String USER_VARIABLE = "BENCH_TEST_USER";
    static final String PASSWORD_VARIABLE = "BENCH_TEST_PASSWORD";

    private static final Logger log = LoggerFactory.getLogger(TestServer.class);
    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String EMBEDDED_DATABASE = "gauntlet_test";

    private final TestDatabase.Kind kind;
    private final String baseUrl;
    private final String user;
    private final String password;
    private final String defaultDatabase;
    private final LocalPostgres embedded;
    /** Closed with the server: the container, or the embedded server's temporary directory. */
    private final AutoCloseable resource;

    private TestServer(TestDatabase.Kind kind, String baseUrl, String user, String password, String defaultDatabase,
            LocalPostgres embedded, AutoCloseable resource) {
        this.kind = kind;
        this.baseUrl = baseUrl;
        this.user = user;
        this.password = password;
        this.defaultDatabase = defaultDatabase;
        this.embedded = embedded;
        this.resource = resource;
    }

    /** Picks and starts the server for this JVM. */
    static TestServer start() {
        String url = System.getenv(URL_VARIABLE);
        if (url != null && !url.isBlank()) {
            return fromUrl(url.trim(), System.getenv(USER_VARIABLE), System.getenv(PASSWORD_VARIABLE));
        }
        if (testcontainersPresent() && TestcontainersPostgres.dockerAvailable()) {
            return TestcontainersPostgres.start();
        }
        return embedded();
    }

    /** Modules reusing the test-jar may not have Testcontainers; then its types must never be touched. */
    private static boolean testcontainersPresent() {
        try {
            Class.forName("org.testcontainers.postgresql.PostgreSQLContainer", false, TestServer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static TestServer fromUrl(String url, String user, String password) {
        log.debug("tests use the server at {}", url.replaceAll("password=[^&]*", "password=***"));
        return new TestServer(TestDatabase.Kind.URL, url, user, password, JdbcUrl.databaseOf(url), null, null);
    }

    /** A server in a container; {@code container} is closed with this server. */
    static TestServer fromContainer(String url, String user, String password, AutoCloseable container) {
        return new TestServer(TestDatabase.Kind.TESTCONTAINERS, url, user, password, JdbcUrl.databaseOf(url), null,
                container);
    }

    static TestServer embedded() {
        TemporaryPostgres temporary = TemporaryPostgres.start("gauntlet-test-postgres-", EMBEDDED_DATABASE);
        LocalPostgres postgres = temporary.server();
        log.debug("tests use embedded PostgreSQL on port {}", postgres.port());
        return new TestServer(TestDatabase.Kind.EMBEDDED, postgres.jdbcUrl(EMBEDDED_DATABASE), postgres.user(),
                null, EMBEDDED_DATABASE, postgres, temporary);
    }

    TestDatabase.Kind kind() {
        return kind;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    TestDatabase defaultDatabase() {
        return new TestDatabase(this, defaultDatabase);
    }

    String jdbcUrl(String database) {
        return JdbcUrl.withDatabase(baseUrl, database);
    }

    TestDatabase freshDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("test database names are lower-case letters, digits and '_': " + name);
        }
        TestDatabase admin = defaultDatabase();
        try (Connection c = admin.connect()) {
            try (PreparedStatement end = c.prepareStatement(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()")) {
                end.setString(1, name);
                end.execute();
            }
            try (Statement s = c.createStatement()) {
                s.execute("drop database if exists " + name);
                s.execute("create database " + name);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not recreate test database " + name + " on " + admin + ": "
                    + e.getMessage(), e);
        }
        return new TestDatabase(this, name);
    }

    void restart(boolean immediate) {
        if (embedded == null) {
            Assumptions.abort("restarting the database needs the embedded PostgreSQL; this run uses "
                    + kind.name().toLowerCase() + " (unset " + URL_VARIABLE + " and run without Docker)");
        }
        embedded.restart(immediate);
    }

    @Override
    public void close() {
        try {
            if (embedded != null) {
                embedded.stop();
            }
            if (resource != null) {
                resource.close();
            }
        } catch (Exception e) {
            log.debug("could not stop the test database server", e);
        }
    }
}

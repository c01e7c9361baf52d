package dev.gauntlet.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * One database on the PostgreSQL server that {@link PostgresExtension} gives the tests of this JVM. Every
 * instance on one server shares that server; {@link #freshDatabase(String)} gives a test class a database of
 * its own. The password never appears in {@link #toString()}.
 */
public final class TestDatabase {

    /** Where the server came from, in the order {@link PostgresExtension} tries them. */
    public enum Kind {
        /** {@code BENCH_TEST_JDBC_URL} named a server. */
        URL,
        /** A Testcontainers PostgreSQL container on a Docker engine. */
        TESTCONTAINERS,
        /** {@link dev.gauntlet.sql.server.LocalPostgres} on a temporary data directory. */
        EMBEDDED
    }

    private final TestServer server;
    private final String database;

    TestDatabase(TestServer server, String database) {
        this.server = server;
        this.database = database;
    }

    public Kind kind() {
        return server.kind();
    }

    public String jdbcUrl() {
        return server.jdbcUrl(database);
    }

    public String database() {
        return database;
    }

    public String user() {
        return server.user();
    }

    /** May be null (the embedded server trusts localhost). */
    public String password() {
        return server.password();
    }

    /** A new connection to this database (connect timeout 10 s, auto-commit on); the caller closes it. */
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        if (password() != null) {
            properties.setProperty("password", password());
        }
        properties.setProperty("connectTimeout", "10");
        properties.setProperty("ApplicationName", "gauntlet-test");
        return DriverManager.getConnection(jdbcUrl(), properties);
    }

    /**
     * Drops the database {@code name} on this server if it exists (ending its sessions) and creates it empty.
     * Names are limited to lower-case letters, digits and underscores so they need no quoting anywhere.
     */
    public TestDatabase freshDatabase(String name) {
        return server.freshDatabase(name);
    }

    /** A fast restart of the server; see {@link #restart(boolean)}. */
    public void restart() {
        restart(false);
    }

    /**
     * Restarts the server on the same port (immediate: as after a crash). Only the embedded server can be
     * restarted from here; on any other the calling test is aborted (reported as skipped) with the reason.
     */
    public void restart(boolean immediate) {
        server.restart(immediate);
    }

    @Override
    public String toString() {
        return "TestDatabase[" + kind().name().toLowerCase() + " " + jdbcUrl() + " as " + user() + "]";
    }
}

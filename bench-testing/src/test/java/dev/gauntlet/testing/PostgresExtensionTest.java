package dev.gauntlet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.sql.JdbcUrl;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test database extension hands out one real server, per-class databases, and (embedded only) restarts. */
@ExtendWith(PostgresExtension.class)
class PostgresExtensionTest {

    static TestDatabase own;

    @BeforeAll
    static void createOwnDatabase(TestDatabase server) throws SQLException {
        own = server.freshDatabase("extension_test");
        try (Connection c = own.connect(); Statement s = c.createStatement()) {
            s.execute("create table marker (id int)");
            s.execute("insert into marker values (1)");
        }
    }

    @Test
    void givesARealServer(TestDatabase db) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select version()")) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).startsWith("PostgreSQL"), rs.getString(1));
        }
        if (db.password() != null && !db.password().isEmpty()) {
            assertFalse(db.toString().contains(db.password()), "no password in toString");
        }
    }

    @Test
    void freshDatabaseStartsEmptyAndKeepsTheServer(TestDatabase db) throws SQLException {
        assertEquals("extension_test", own.database());
        assertTrue(own.jdbcUrl().contains("/extension_test"), own.jdbcUrl());
        assertEquals(db.kind(), own.kind());
        TestDatabase again = db.freshDatabase("extension_test_other");
        try (Connection c = again.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select count(*) from pg_tables where schemaname = 'public'")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1));
        }
    }

    @Test
    void restartKeepsCommittedData(TestDatabase db) throws SQLException {
        db.restart(true); // aborts (skips) unless the server is the embedded one
        try (Connection c = own.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select count(*) from marker")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt(1));
        }
    }

    @Test
    void urlsSwapTheDatabaseAndKeepParameters() {
        assertEquals("jdbc:postgresql://h:5432/other?ssl=false",
                JdbcUrl.withDatabase("jdbc:postgresql://h:5432/test?ssl=false", "other"));
        assertEquals("jdbc:postgresql://h1:1,h2:2/other", JdbcUrl.withDatabase("jdbc:postgresql://h1:1,h2:2/", "other"));
        assertEquals("jdbc:postgresql://h/other", JdbcUrl.withDatabase("jdbc:postgresql://h", "other"));
        assertEquals("test", JdbcUrl.databaseOf("jdbc:postgresql://h:5432/test?ssl=false"));
        assertEquals("postgres", JdbcUrl.databaseOf("jdbc:postgresql://h:5432/"));
    }
}

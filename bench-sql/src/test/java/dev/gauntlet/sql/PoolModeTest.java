package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class PoolModeTest {

    @Test
    void parsesTheFourModesInAnyCase() {
        assertEquals(PoolMode.DIRECT, PoolMode.parse("direct"));
        assertEquals(PoolMode.POOLED, PoolMode.parse("Pooled"));
        assertEquals(PoolMode.PGBOUNCER, PoolMode.parse("pgbouncer"));
        assertEquals(PoolMode.PGBOUNCER, PoolMode.parse("PGBOUNCER"));
        assertEquals(PoolMode.CONNECT, PoolMode.parse("connect"));
    }

    @Test
    void anUnknownModeIsRefusedNamingTheFour() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolMode.parse("pgpool"));
        assertEquals("pool mode 'pgpool' is none of direct, pooled, pgbouncer, connect", e.getMessage());
    }

    /** pgbench's -C: each transaction's session is a new connection, closed when given back, even with kept sessions. */
    @Test
    void connectOpensANewSessionForEachTransactionAndClosesItAfter() throws Exception {
        SqlTestServer server = SqlTestServer.shared();
        try (JdbcTarget target = JdbcTarget.of(server.settings(), PoolMode.CONNECT, 0)) {
            assertTrue(target.sessionPerTransaction(), "the runner opens a session for each transaction");
            target.keepSessions();
            Connection first = target.open();
            int firstBackend = backend(first);
            target.release(first, false);
            assertTrue(first.isClosed(), "a transaction's connection is closed at its end");
            Connection second = target.open();
            assertNotEquals(firstBackend, backend(second), "a new server process for the next transaction");
            assertFalse(second.getAutoCommit(), "set up as every session");
            target.release(second, false);
            assertTrue(second.isClosed());
        }
        try (JdbcTarget direct = JdbcTarget.of(server.settings(), PoolMode.DIRECT, 0)) {
            assertFalse(direct.sessionPerTransaction());
        }
    }

    private static int backend(Connection c) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            return r.getInt(1);
        }
    }

    @Test
    void ofRefusesPgBouncerAndPointsAtItsFactory() {
        ConnectionSettings settings = new ConnectionSettings("jdbc:postgresql://localhost:5432/x", "u", null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JdbcTarget.of(settings, PoolMode.PGBOUNCER, 2, JdbcTarget.DEFAULT_ISOLATION));
        assertEquals("a PgBouncer target needs the number of clients: use PgBouncer.target",
                e.getMessage());
    }
}

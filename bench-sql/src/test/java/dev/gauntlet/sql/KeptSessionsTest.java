package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import org.junit.jupiter.api.Test;

/**
 * A direct target that keeps sessions (what a run after an apart priming starts with): a connection given back whole
 * is the next one opened, a broken one is closed and not handed out again, and closing the target closes those kept.
 */
class KeptSessionsTest {

    @Test
    void aSessionGivenBackWholeIsReusedABrokenOneIsNotAndCloseClosesTheKept() throws Exception {
        SqlTestServer server = SqlTestServer.shared();
        Connection first;
        Connection third;
        try (JdbcTarget target = JdbcTarget.direct(server.settings())) {
            Connection plain = target.open();
            target.release(plain, false);
            assertTrue(plain.isClosed(), "without keepSessions a session given back is closed");

            target.keepSessions();
            first = target.open();
            target.release(first, false);
            assertFalse(first.isClosed());
            assertSame(first, target.open(), "the kept session is the next one opened");

            target.release(first, true);
            assertTrue(first.isClosed(), "a broken session is closed, not kept");
            Connection second = target.open();
            assertNotSame(first, second);
            assertFalse(second.getAutoCommit(), "a new session is set up as always");
            target.release(second, false);
            third = target.open();
            assertSame(second, third);
            target.release(third, false);
        }
        assertTrue(third.isClosed(), "closing the target closes the sessions it kept");
    }
}

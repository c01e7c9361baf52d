package dev.gauntlet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.Attempt;
import dev.gauntlet.core.run.Failure;
import dev.gauntlet.core.run.Operation;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sessions have no socket timeout (a poll before every read); a server that stops answering still cannot hang a run:
 * the watchdog aborts a session whose transaction outlasts the limit, and the client's read fails as a lost
 * connection, which the run's error policy reconnects from. A transaction within the limit is left alone.
 */
class SessionWatchdogTest {

    private static Operation<Connection> sleeping(double seconds) {
        return new Operation<>() {
            @Override
            public String name() {
                return "sleep";
            }

            @Override
            public void execute(Connection c, Attempt attempt) throws Exception {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_sleep(" + seconds + ")");
                }
            }
        };
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aTransactionThatOutlastsTheLimitIsAbortedAsALostConnection() throws Exception {
        SqlTestServer server = SqlTestServer.shared();
        try (JdbcTarget target = JdbcTarget.direct(server.settings(), Duration.ofSeconds(2))) {
            Connection session = target.open();
            target.transact(session, sleeping(0.2), new Attempt()); // within the limit: untouched
            assertEquals(0, target.sessionsAborted());

            // the server "stops answering" for 45 s: without the watchdog the read waits all of it (no socket timeout)
            Exception e = assertThrows(Exception.class, () -> target.transact(session, sleeping(45), new Attempt()));
            assertEquals(Failure.Kind.CONNECTION, target.classify(e).kind(), e.toString());
            assertEquals(1, target.sessionsAborted());
            assertTrue(session.isClosed());
            target.release(session, true);

            Connection next = target.open(); // the run goes on with a new session
            target.transact(next, sleeping(0), new Attempt());
            target.release(next, false);
        }
    }
}

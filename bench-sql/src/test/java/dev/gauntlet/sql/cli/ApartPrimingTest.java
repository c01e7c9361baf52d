package dev.gauntlet.sql.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.SqlTestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The priming apart hands the workload's restore one of the benchmark's sessions, whose socket timeout (30 s by
 * default) is for a stalled server, not for a restore that waits for the tables: the restore may take up to
 * {@link ApartPriming#RESTORE_TIMEOUT}, and the session has its own timeout back for the run.
 */
class ApartPrimingTest {

    @Test
    void theRestoreWaitsForTheTablesPastTheSessionsSocketTimeout() throws Exception {
        SqlTestServer db = SqlTestServer.shared().freshDatabase("apart_priming_restore");
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE primed (n bigint)");
        }
        // Sessions of the run with a socket timeout of 1 s (a URL's parameters override Gauntlet's defaults).
        String url = db.url() + (db.url().contains("?") ? "&" : "?") + "socketTimeout=1";
        ConnectionSettings oneSecond = new ConnectionSettings(url, db.user(), db.password());
        AtomicInteger restored = new AtomicInteger();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (JdbcTarget target = JdbcTarget.direct(oneSecond); Connection holder = db.connect()) {
            target.keepSessions();
            Workload<Connection> inserts = Workload.repeating(Operation.of("insert", c -> {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO primed VALUES (1)");
                }
            }));
            RunPlan plan = RunPlan.closedLoop(2, Duration.ofSeconds(1)).toBuilder().prime(Duration.ofMillis(500))
                    .build();
            ApartPriming priming = new ApartPriming(plan, Duration.ofMillis(500));
            // What still holds the tables when the priming ends (a statement of its own, still running): 2.5 s.
            Thread release = new Thread(() -> {
                try {
                    Thread.sleep(2_500);
                    holder.commit();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            priming.run(inserts, target, List.of(), c -> {
                holder.setAutoCommit(false);
                try (Statement s = holder.createStatement()) {
                    s.execute("LOCK TABLE primed IN ACCESS SHARE MODE");
                }
                release.start();
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("TRUNCATE primed");
                }
                c.setAutoCommit(false);
                restored.incrementAndGet();
            }, c -> { }, new PrintStream(printed, true, StandardCharsets.UTF_8));
            release.join();
            assertEquals(1, restored.get(), printed.toString(StandardCharsets.UTF_8));
            List<Connection> kept = target.keptSessions();
            assertFalse(kept.isEmpty(), "the priming's sessions are kept for the run");
            for (Connection session : kept) {
                assertFalse(session.isClosed());
                assertEquals(1_000, session.getNetworkTimeout(), "the session's own socket timeout, back for the run");
            }
        }
        assertEquals(0, db.scalarLong("SELECT count(*) FROM primed"), "the restore ran to its end");
    }
}

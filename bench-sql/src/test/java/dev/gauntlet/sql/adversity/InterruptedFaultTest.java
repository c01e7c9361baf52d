package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.Await;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.SqlTestServer;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during a fault: the run is asked to stop (what the interrupt hook does) while the primary is frozen, and the
 * run still ends with the fault undone, the server answering and the record saying the disruption was switched off
 * early. A workload of single-row updates keeps sessions busy through it. The servers are the test's own (it freezes
 * the primary), used through {@link SqlTestServer}'s helpers.
 */
class InterruptedFaultTest {

    @TempDir
    Path home;

    @Test
    void stoppingTheRunDuringADiskStallResumesTheServer() throws Exception {
        try (ReplicatedPostgres servers = ReplicatedPostgres.in(home).build().start(m -> { })) {
            servers.primary().createDatabaseIfAbsent("bench");
            SqlTestServer db = SqlTestServer.of(servers.primary(), "bench");
            db.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint)", "INSERT INTO counter VALUES (1, 0)");
            SystemUnderTest system = new SystemUnderTest(null, "bench", servers, null);
            AdversityPlan plan = PlanFile.parse("t.yaml", """
                    phases:
                      - name: baseline
                        length: 2s
                      - name: stall
                        length: 60s
                        disruptions:
                          - {kind: disk-stall, at: 1s, length: 50s}
                    """);
            RunPlan.Builder b = RunPlan.builder().clients(2, 0).reportEvery(Duration.ofSeconds(1)).seed(1);
            plan.phasePlans().forEach(b::phase);
            AtomicBoolean stallOn = new AtomicBoolean();
            Disruptions.plans(plan.schedule(1), system).forEach(d -> b.disruption(
                    noticed(d.disruption(), stallOn), d.at(), d.length()));
            Workload<Connection> updates = Workload.repeating(Operation.of("update", c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("UPDATE counter SET n = n + 1 WHERE id = 1");
                }
            }));
            ExecutorService ctrlC = Executors.newSingleThreadExecutor();
            try (JdbcTarget target = JdbcTarget.of(db.settings(), PoolMode.DIRECT, 1)) {
                Runner<Connection> runner = new Runner<>(b.build(), updates, target, RunListener.NONE, null);
                // Mid-stall: the stall starts 3 s in (2 s baseline + 1 s) and would last 50 s; Ctrl-C once it is on.
                Future<?> interrupt = ctrlC.submit(() -> {
                    Await.until(Duration.ofSeconds(40), "the disk stall to freeze the primary", stallOn::get);
                    runner.requestStop("interrupted");
                    return null;
                });
                long t0 = System.nanoTime();
                RunRecord record = runner.run();
                interrupt.get(60, TimeUnit.SECONDS); // fails here if the stall never came on
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(45), "the run stopped early");
                DisruptionRecord stall = record.disruptions().get(0);
                assertEquals(DisruptionRecord.DONE, stall.outcome(), stall.toString());
                assertTrue(stall.endSeconds() < 20, "switched off when the run stopped: " + stall);
                assertTrue(stall.notes().contains("resumed them (SIGCONT)"), stall.notes().toString());
            } finally {
                ctrlC.shutdownNow();
            }
            for (long pid : servers.primary().serverProcesses()) {
                assertNotEquals('T', SqlTestServer.processState(pid), "process " + pid + " resumed");
            }
            assertTrue(db.scalarLong("UPDATE counter SET n = n + 1 WHERE id = 1 RETURNING n") > 1,
                    "the server takes writes again");
        }
    }

    /** {@code disruption} as it is, but raising {@code on} once its start returned: the fault is on. */
    private static Disruption noticed(Disruption disruption, AtomicBoolean on) {
        return new Disruption() {
            @Override
            public String name() {
                return disruption.name();
            }

            @Override
            public void start(Log log) throws Exception {
                disruption.start(log);
                on.set(true);
            }

            @Override
            public void stop(Log log) throws Exception {
                disruption.stop(log);
            }
        };
    }
}

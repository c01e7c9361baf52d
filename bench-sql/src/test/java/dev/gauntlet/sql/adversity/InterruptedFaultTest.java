package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during a fault: the run is asked to stop (what the interrupt hook does) while the primary is frozen, and the
 * run still ends with the fault undone, the server answering and the record saying the disruption was switched off
 * early. A workload of single-row updates keeps sessions busy through it.
 */
class InterruptedFaultTest {

    @TempDir
    Path home;

    @Test
    void stoppingTheRunDuringADiskStallResumesTheServer() throws Exception {
        try (ReplicatedPostgres servers = ReplicatedPostgres.in(home).build().start(m -> { })) {
            servers.primary().createDatabaseIfAbsent("bench");
            ConnectionSettings settings = new ConnectionSettings(servers.primary().jdbcUrl("bench"), "postgres", null);
            try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint)");
                s.execute("INSERT INTO counter VALUES (1, 0)");
            }
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
            Disruptions.plans(plan.schedule(1), system).forEach(d -> b.disruption(d.disruption(), d.at(), d.length()));
            Workload<Connection> updates = Workload.repeating(Operation.of("update", c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("UPDATE counter SET n = n + 1 WHERE id = 1");
                }
            }));
            ScheduledExecutorService ctrlC = Executors.newSingleThreadScheduledExecutor();
            try (JdbcTarget target = JdbcTarget.of(settings, PoolMode.DIRECT, 1)) {
                Runner<Connection> runner = new Runner<>(b.build(), updates, target, RunListener.NONE, null);
                // Mid-stall: the stall starts 3 s in (2 s baseline + 1 s) and would last 50 s.
                ctrlC.schedule(() -> runner.requestStop("interrupted"), 6, TimeUnit.SECONDS);
                long t0 = System.nanoTime();
                RunRecord record = runner.run();
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(45), "the run stopped early");
                DisruptionRecord stall = record.disruptions().get(0);
                assertEquals(DisruptionRecord.DONE, stall.outcome(), stall.toString());
                assertTrue(stall.endSeconds() < 20, "switched off when the run stopped: " + stall);
                assertTrue(stall.notes().contains("resumed them (SIGCONT)"), stall.notes().toString());
            } finally {
                ctrlC.shutdownNow();
            }
            for (long pid : servers.primary().serverProcesses()) {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                assertNotEquals('T', stat.charAt(stat.lastIndexOf(')') + 2), "process " + pid + " resumed");
            }
            try (Connection c = settings.connectForAdmin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("UPDATE counter SET n = n + 1 WHERE id = 1 RETURNING n")) {
                assertTrue(rs.next() && rs.getLong(1) > 1, "the server takes writes again");
            }
        }
    }
}

package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.core.result.DisruptionRecord;
import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.sql.lab.PatroniCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kinds of the embedded servers aimed at one node of a Patroni lab (root and Debian's packages; skipped with the
 * reason elsewhere): {@code disk-stall} stops the node's PostgreSQL and resumes it, {@code restart-fast} has its
 * Patroni restart it. Each is recorded as a cluster's fault is: the members before, the availability gap by the write
 * probe, and the node's return.
 */
@Tag("long")
@Tag("lab")
class NodeAimedDisruptionsTest {

    /** A log that keeps what a disruption says, as the runner's record does. */
    static final class Kept implements Disruption.Log {
        final List<String> notes = java.util.Collections.synchronizedList(new ArrayList<>());
        final Map<String, Double> figures = java.util.Collections.synchronizedMap(new LinkedHashMap<>());

        @Override
        public void note(String message) {
            notes.add(message);
        }

        @Override
        public void figure(String name, double value) {
            figures.put(name, value);
        }

        String all() {
            synchronized (notes) {
                return String.join("\n", notes);
            }
        }
    }

    @Test
    void aNodeIsStalledAndRestartedAndEachIsRecordedAsTheClusterSawIt() throws Exception {
        Optional<String> missing = missing();
        assumeTrue(missing.isEmpty(), missing.orElse(""));
        try (PatroniCluster lab = PatroniCluster.start(PatroniCluster.Settings.defaults().synchronous(true), m -> { })) {
            lab.createDatabase("aimed");
            SystemUnderTest system = new SystemUnderTest(lab.settings(lab.haproxyUrl("aimed")), "aimed", null, null,
                    lab);
            String leader = lab.leader().orElseThrow().name();

            // The synchronous standby's disk stalls: the leader's commits wait for it, so writes are refused (the
            // probe's 2 s socket timeout) until it resumes or Patroni picks another synchronous standby.
            Disruption stall = Disruptions.of(scheduled("disk-stall", Duration.ofSeconds(8), "sync-standby"), system,
                    null);
            Kept stalled = new Kept();
            stall.start(stalled);
            Thread.sleep(8_000);
            stall.stop(stalled);
            stall.undo(stalled);
            String said = stalled.all();
            assertTrue(said.matches("(?s).*n\\d: its PostgreSQL's \\d+ processes stopped \\(SIGSTOP\\).*"), said);
            assertTrue(said.contains("resumed"), said);
            assertTrue(stalled.figures.containsKey(DisruptionRecord.AVAILABILITY_GAP), said);
            assertTrue(said.matches("(?s).*n\\d back as (replica|sync_standby).*"), said);

            // The leader restarted by its Patroni: sessions lost, writes refused a moment, the same leader after.
            Disruption restart = Disruptions.of(scheduled("restart-fast", null, "leader"), system, null);
            Kept restarted = new Kept();
            restart.start(restarted);
            restart.undo(restarted);
            said = restarted.all();
            assertTrue(said.contains(leader + " (the leader) restarted by Patroni"), said);
            Double gap = restarted.figures.get(DisruptionRecord.AVAILABILITY_GAP);
            assertTrue(gap != null && gap > 0, "writes stopped while it restarted: " + said);
            assertTrue(said.contains(leader + " back as leader"), said);
            assertEquals(leader, lab.leader().orElseThrow().name(), "a restart is not a failover");
        }
    }

    private static ScheduledDisruption scheduled(String kind, Duration length, String node) {
        DisruptionKind k = DisruptionKind.byLabel(kind).orElseThrow();
        DisruptionSpec spec = new DisruptionSpec(k, kind, Duration.ZERO, length, 1, Duration.ZERO, false, null,
                Map.of("node", node));
        return new ScheduledDisruption(kind, "test", spec, Duration.ZERO, length);
    }

    static Optional<String> missing() {
        try {
            PatroniCluster.requireHost();
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
    }
}

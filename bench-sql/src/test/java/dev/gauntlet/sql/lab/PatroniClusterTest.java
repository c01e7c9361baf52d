package dev.gauntlet.sql.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gauntlet.sql.SqlTestServer;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Patroni lab on this machine (root and Debian's packages, which .ci/run installs; skipped with the reason
 * elsewhere): it comes up with a leader and streaming replicas, HAProxy's primary port and the multi-host URL both
 * reach the leader, the cluster fails over by itself when the leader's node is cut off, and closing the lab leaves
 * no process, namespace, link or directory behind.
 */
@Tag("long")
@Tag("lab")
class PatroniClusterTest {

    @Test
    void aLabComesUpFailsOverByItselfAndLeavesNothingBehind() throws Exception {
        Optional<String> missing = missing();
        assumeTrue(missing.isEmpty(), missing.orElse(""));
        List<String> said = new ArrayList<>();
        PatroniCluster lab = PatroniCluster.start(PatroniCluster.Settings.defaults().synchronous(true), said::add);
        String namespace;
        try {
            List<PatroniCluster.Member> members = lab.members();
            assertEquals(3, members.size(), members.toString());
            PatroniCluster.Member leader = lab.leader().orElseThrow();
            assertEquals(1, members.stream().filter(PatroniCluster.Member::leads).count(), members.toString());
            namespace = lab.network().namespace("n1");
            lab.createDatabase("lab_test");
            try (Connection c = lab.settings(lab.haproxyUrl("lab_test")).connectForAdmin();
                 Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (n int)");
                s.execute("INSERT INTO t VALUES (1)");
                assertEquals("f", SqlTestServer.scalar(c, "SELECT pg_is_in_recovery()"), "HAProxy reaches the leader");
                assertEquals(lab.nodes().get(leader.name()), SqlTestServer.scalar(c, "SELECT host(inet_server_addr())"));
            }
            try (Connection c = lab.settings(lab.multiHostUrl("lab_test")).connectForAdmin()) {
                assertEquals("f", SqlTestServer.scalar(c, "SELECT pg_is_in_recovery()"), "so does the multi-host URL");
            }

            // The leader's node cut off from everything: Patroni's leader key expires and another node leads.
            lab.network().connect(leader.name(), false);
            String newLeader = awaitOtherLeader(lab, leader.name());
            // Patroni names the new leader when it takes the key, before the promotion ends and HAProxy's check
            // marks it up: the first writes may still fail for a few seconds.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try (Connection c = lab.settings(lab.haproxyUrl("lab_test")).connectForAdmin();
                     Statement s = c.createStatement()) {
                    s.execute("INSERT INTO t VALUES (2)");
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                        rs.next();
                        assertEquals(2, rs.getInt(1), "the synchronous standby had the first row");
                    }
                    assertEquals(lab.nodes().get(newLeader), SqlTestServer.scalar(c, "SELECT host(inet_server_addr())"));
                    break;
                } catch (java.sql.SQLException e) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("no write through HAProxy 30 s after " + newLeader + " led", e);
                    }
                    Thread.sleep(500);
                }
            }
            lab.network().connect(leader.name(), true);
        } finally {
            lab.close();
        }
        assertFalse(Files.exists(lab.directory()), "the lab's directory is gone");
        assertFalse(LabHost.run("ip", "netns", "list").contains(namespace), "its namespaces are gone");
        assertTrue(LabLeftovers.killProcesses(lab.directory()).isEmpty(), "no process of it runs");
        assertTrue(said.stream().anyMatch(l -> l.startsWith("cluster up in ")), said.toString());
    }

    private static String awaitOtherLeader(PatroniCluster lab, String old) throws InterruptedException {
        long deadline = System.nanoTime() + 90_000_000_000L;
        String seen = "";
        while (System.nanoTime() < deadline) {
            try {
                Optional<PatroniCluster.Member> leader = lab.leader();
                seen = lab.members().toString();
                if (leader.isPresent() && !leader.get().name().equals(old)) {
                    return leader.get().name();
                }
            } catch (IllegalStateException e) {
                seen = e.getMessage();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("no other leader within 90 s of cutting " + old + " off: " + seen);
    }

    /** Why the lab cannot run here, or empty. */
    static Optional<String> missing() {
        try {
            LabHost.require();
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
    }
}

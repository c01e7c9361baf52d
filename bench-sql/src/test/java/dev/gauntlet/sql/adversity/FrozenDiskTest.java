package dev.gauntlet.sql.adversity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.run.Disruption;
import dev.gauntlet.sql.SqlTestServer;
import dev.gauntlet.sql.server.LoopFileSystem;
import dev.gauntlet.sql.server.ReplicatedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk stall where the machine allows a file system of the servers' own (root, loop devices): fsfreeze stops
 * every write, so a commit waits while a read from memory is still answered; thawed, the server takes writes again.
 * The servers are the test's own (it freezes their disk), used through {@link SqlTestServer}'s helpers.
 */
class FrozenDiskTest {

    @TempDir
    Path dir;

    @Test
    void aFrozenFileSystemStallsCommitsButNotCachedReads() throws Exception {
        Assumptions.assumeTrue(LoopFileSystem.unavailable().isEmpty(),
                () -> "no loop-mounted file system here: " + LoopFileSystem.unavailable().orElse(""));
        LoopFileSystem fs = LoopFileSystem.mount(dir.resolve("disk.img"), dir.resolve("mnt"));
        try (ReplicatedPostgres servers = ReplicatedPostgres.on(fs).build().start(m -> { })) {
            String url = servers.primary().jdbcUrl("postgres");
            try (Connection c = connect(url)) {
                SqlTestServer.execute(c, "CREATE TABLE t (id int PRIMARY KEY, v int)", "INSERT INTO t VALUES (1, 0)",
                        "CHECKPOINT");
            }
            SystemUnderTest system = new SystemUnderTest(null, "postgres", servers, null);
            Disruption stall = Disruptions.of(PlanFile.parse("t.yaml", "phases: [{name: p, length: 1m, "
                    + "disruptions: [{kind: disk-stall, length: 30s}]}]").schedule(1).get(0), system, null);
            List<String> notes = new ArrayList<>();
            try (Connection reader = connect(url); Connection writer = connect(url)) {
                stall.start(notes::add);
                try {
                    assertTrue(notes.get(0).startsWith("froze writes to the servers' file system (fsfreeze "), notes.toString());
                    try (Statement s = reader.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t")) {
                        assertTrue(rs.next(), "a read from memory is answered during the stall");
                    }
                    SQLException stalled = assertThrows(SQLException.class, () -> {
                        try (Statement s = writer.createStatement()) {
                            s.execute("UPDATE t SET v = v + 1");
                        }
                    });
                    assertTrue(stalled.getSQLState().startsWith("08"), "the commit waited past the socket timeout: "
                            + stalled);
                } finally {
                    stall.stop(notes::add);
                }
            }
            assertEquals("thawed (fsfreeze -u)", notes.get(notes.size() - 1));
            try (Connection c = connect(url)) {
                SqlTestServer.execute(c, "UPDATE t SET v = v + 1");
            }
        } finally {
            fs.unmount();
        }
    }

    /** A statement waiting on the frozen disk gives up after 3 s. */
    private static Connection connect(String url) throws SQLException {
        return SqlTestServer.connect(url, Duration.ofSeconds(3));
    }
}

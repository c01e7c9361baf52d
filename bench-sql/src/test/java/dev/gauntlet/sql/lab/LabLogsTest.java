package dev.gauntlet.sql.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a lab keeps of itself and what it says of a node not up, over lines of a real lab's logs: one started from a
 * shell with PGPASSWORD exported (2026-12-07), whose replicas never cloned.
 */
class LabLogsTest {

    private static final String BASEBACKUP = "pg_basebackup: error: connection to server at \"10.201.1.13\", port 5432 "
            + "failed: FATAL:  password authentication failed for user \"replicator\"";

    @Test
    void aReplicaThatCannotCloneIsExplainedByPostgresReasonNotPatronisSummary(@TempDir Path lab) throws Exception {
        Files.createDirectories(lab.resolve("n1/log"));
        Files.write(lab.resolve("n1.log"), List.of(BASEBACKUP, BASEBACKUP));
        Files.write(lab.resolve("n1/log/patroni.log"), List.of(
                "2026-12-07 04:03:37,779 ERROR: failed to bootstrap from leader 'n3'",
                "2026-12-07 04:03:38,786 ERROR: Error when fetching backup: pg_basebackup exited with code=1",
                "2026-12-07 04:03:38,786 WARNING: Trying again in 5 seconds"));
        assertEquals(Optional.of("FATAL: password authentication failed for user \"replicator\""),
                LabLogs.lastError(lab, "n1"));
        Files.write(lab.resolve("n1.log"), List.of("nothing went wrong here"));
        assertEquals(Optional.of("ERROR: Error when fetching backup: pg_basebackup exited with code=1"),
                LabLogs.lastError(lab, "n1"), "without PostgreSQL's reason, Patroni's last error");
        assertEquals(Optional.empty(), LabLogs.lastError(lab, "n2"), "no logs, nothing said");
    }

    @Test
    void logsAndConfigurationsAreKeptWithoutPasswordsAndWithoutData(@TempDir Path tmp) throws Exception {
        Path lab = tmp.resolve("lab");
        for (String dir : List.of("n1/log", "n1/data/log", "n1/data/base/1", "e1/member/wal")) {
            Files.createDirectories(lab.resolve(dir));
        }
        Files.writeString(lab.resolve("n1/patroni.yml"), """
                scope: gauntlet-7b2b
                postgresql:
                  authentication:
                    superuser:
                      username: postgres
                      password: 0123456789abcdef01234567
                    replication: {username: replicator, password: x}
                """);
        for (String f : List.of("n1.log", "n1/log/patroni.log", "n1/log/patroni.log.1", "n1/data/log/postgresql.log",
                "n1/data/base/1/16384", "n1/data/postmaster.log", "e1.log", "e1/member/wal/0.wal", "haproxy.log",
                "haproxy.cfg", "n1/pgpass")) {
            Files.writeString(lab.resolve(f), f);
        }
        Path into = tmp.resolve("kept");
        List<Path> kept = LabLogs.copy(lab, into);
        assertEquals(List.of("e1.log", "haproxy.cfg", "haproxy.log", "n1.log", "n1/data/log/postgresql.log",
                        "n1/log/patroni.log", "n1/log/patroni.log.1", "n1/patroni.yml"),
                kept.stream().map(p -> into.relativize(p).toString()).sorted().toList());
        String yml = Files.readString(into.resolve("n1/patroni.yml"));
        assertFalse(yml.contains("0123456789abcdef01234567") || yml.matches("(?s).*password: \"?x.*"), yml);
        assertEquals(2, yml.split("password: \"\\(not kept\\)\"", -1).length - 1, yml);
        assertTrue(yml.contains("username: \"postgres\""), yml);
        assertFalse(Files.exists(into.resolve("n1/pgpass")), "the password file stays behind");
    }
}

package dev.gauntlet.sql.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A node's rewinds as Patroni 3.0's log of it says them (lines as a lab of this machine wrote them, 2026-12-05): a
 * rewind that worked, one that failed for want of the node's own WAL and the removal and clone Patroni did after it
 * ({@code remove_data_directory_on_rewind_failure}), and what a fault's record says of them.
 */
class NodeFaultsTest {

    @Test
    void aFailedRewindAndTheCloneAfterItAreReadFromPatronisLog() {
        List<NodeFaults.Rewind> rewinds = NodeFaults.rewinds(Stream.of(
                "2026-12-05 21:58:01,372 INFO: replica has been created using basebackup",
                "2026-12-05 21:59:09,251 INFO: pg_rewind exit code=0",
                "2026-12-05 21:59:09,251 INFO:  stdout=",
                "2026-12-05 21:59:09,251 INFO:  stderr=pg_rewind: servers diverged at WAL location 0/3225B7A8 on "
                        + "timeline 2",
                "2026-12-05 22:00:11,109 INFO: pg_rewind exit code=1",
                "2026-12-05 22:00:11,109 INFO:  stdout=",
                "2026-12-05 22:00:11,109 INFO:  stderr=pg_rewind: servers diverged at WAL location 0/2AF9AF88 on "
                        + "timeline 2",
                "pg_rewind: error: could not open file \"/var/tmp/gauntlet/lab/64ab/n1/data/pg_wal/"
                        + "00000002000000000000002C\": No such file or directory",
                "2026-12-05 22:00:11,118 ERROR: Failed to rewind from healty primary: n2",
                "2026-12-05 22:00:11,118 WARNING: remove_data_directory_on_rewind_failure is set. removing...",
                "2026-12-05 22:00:11,118 INFO: Removing data directory: /var/tmp/gauntlet/lab/64ab/n1/data",
                "2026-12-05 22:00:12,915 INFO: replica has been created using basebackup"));
        assertEquals(List.of(new NodeFaults.Rewind(0, false), new NodeFaults.Rewind(1, true)), rewinds);
        assertEquals("exit 1, then its data directory removed and cloned again", rewinds.get(1).toString());
        assertEquals("exit 0", rewinds.get(0).toString());
    }

    @Test
    void aRemovalWithNoRewindBeforeItIsNotOne() {
        assertEquals(List.of(), NodeFaults.rewinds(Stream.of(
                "2026-12-05 22:00:11,118 WARNING: remove_data_directory_on_diverged_timelines is set. removing...")));
        assertEquals(List.of(new NodeFaults.Rewind(-1, false)),
                NodeFaults.rewinds(Stream.of("x INFO: pg_rewind exit code=?")));
    }
}

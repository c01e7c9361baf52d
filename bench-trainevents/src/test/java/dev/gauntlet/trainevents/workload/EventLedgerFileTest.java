package dev.gauntlet.trainevents.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.testing.RetainedArrays;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.trainevents.TrainEventsCommand;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.schema.EventTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event ledger is a file in the run's directory, not arrays in the heap: whatever a run's length, the heap holds
 * a few counters of it; the checks read it back from the directory, after a driver killed mid-write too.
 */
@ExtendWith(PostgresExtension.class)
class EventLedgerFileTest {

    private static final long MIB = 1 << 20;
    private static final String NONE_LOST = "every event added is live or archived (none lost)";

    @Test
    void theLedgerKeepsNoEventInTheHeap() throws Exception {
        EventLedger ledger = new EventLedger();
        UUID[] batch = new UUID[1000];
        byte[] states = new byte[batch.length];
        Arrays.fill(states, EventLedger.COMPLETE);
        for (int b = 0; b < 1000; b++) {
            for (int i = 0; i < batch.length; i++) {
                batch[i] = new UUID(b, i);
            }
            ledger.added(batch, batch.length);
            ledger.processed(batch, states, batch.length);
        }
        long held = RetainedArrays.bytes(ledger);
        assertTrue(held < MIB, "1,000,000 events added and processed, " + held + " bytes of arrays held");
        assertEquals(2_000_000L * 18, Files.size(ledger.file()), "18 bytes an event or step, on disk");
        assertEquals(List.of(1_000_000L, 0L, 1_000_000L), List.of(ledger.size(), ledger.uncertainSize(),
                ledger.stepsSize()));
    }

    /** A run by the command: its ledger is in its directory and, read back, gives the run's verdict. */
    @Test
    void aRunsLedgerIsInItsDirectoryAndGivesItsVerdictReadBack(TestDatabase server, @TempDir Path out)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_ledger_file");
        CommandRun run = CommandRun.of(new TrainEventsCommand(), db, "run", "--clients", "4", "--duration", "2s",
                "--seed-events", "200", "--delay", "10ms", "--out", out.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        EventLedger readBack = EventLedger.read(out);
        assertNotNull(readBack, EventLedger.FILE + " in the run's directory");
        assertTrue(readBack.size() > 200, "the seeded events and the run's: " + readBack.size());
        assertTrue(run.out().contains(String.format(Locale.ROOT, "Events: %,d added (200 seeded before the run, "
                + "%,d uncertain), %,d process and archive steps heard commit", readBack.size(),
                readBack.uncertainSize(), readBack.stepsSize())), run.out());
        RunResult r = ResultFile.read(out.resolve(ResultFile.NAME));
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            for (Check k : EventChecks.run(c, Variant.JSONB, readBack)) {
                assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail());
                assertTrue(r.checks().contains(k), k + " in the run's result: " + r.checks());
            }
        }
    }

    /** Seeded events, one then deleted, and the driver killed mid-write: read back, the whole records name it. */
    @Test
    void aLedgerLeftByAKilledDriverNamesTheLostEvent(TestDatabase server, @TempDir Path dir) throws Exception {
        TestDatabase db = server.freshDatabase("te_ledger_killed");
        String deleted;
        try (Connection c = db.connect(); EventLedger ledger = new EventLedger(dir)) {
            c.setAutoCommit(true);
            EventTables.create(c, Variant.JSONB, false, 50, 7, ledger);
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT min(id::text) FROM " + Variant.EVENTS)) {
                rs.next();
                deleted = rs.getString(1);
                s.execute("DELETE FROM " + Variant.STATUS + " WHERE event_id = '" + deleted + "'");
                s.execute("DELETE FROM " + Variant.EVENTS + " WHERE id = '" + deleted + "'");
            }
        }
        Files.write(dir.resolve(EventLedger.FILE), new byte[11], StandardOpenOption.APPEND);
        EventLedger readBack = EventLedger.read(dir);
        assertEquals(50, readBack.size(), "the whole records");
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            Check lost = EventChecks.run(c, Variant.JSONB, readBack).stream()
                    .filter(k -> k.name().equals(NONE_LOST)).findFirst().orElseThrow();
            assertEquals(Check.Status.FAIL, lost.status(), lost.detail());
            assertTrue(lost.detail().startsWith("1 violation: id=" + deleted), lost.detail());
        }
    }
}

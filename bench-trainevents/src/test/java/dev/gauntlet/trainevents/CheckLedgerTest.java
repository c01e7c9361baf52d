package dev.gauntlet.trainevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RecoveredRun;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.testing.CommandRun;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.workload.EventLedger;
import dev.gauntlet.trainevents.workload.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --ledger DIR}: the event checks a run makes at its end, made again from the ledger the run left in its
 * directory (as after a driver that died before it could make them): they pass, go into the run's result and report,
 * and fail naming an event lost since; what one process's ledger of a split run, or a dead driver's, cannot show is
 * skipped with why; a directory without a ledger is refused in one line.
 */
@ExtendWith(PostgresExtension.class)
class CheckLedgerTest {

    private static CommandRun cli(TestDatabase db, String command, String... args) {
        return CommandRun.of(new TrainEventsCommand(), db, command, args);
    }

    @Test
    void aRunsLedgerIsCheckedAfterTheRunAndAnEventLostSinceIsNamed(TestDatabase server, @TempDir Path tmp)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_check_ledger");
        Path dir = tmp.resolve("run");
        CommandRun run = cli(db, "run", "--clients", "2", "--duration", "2s", "--seed-events", "100", "--delay",
                "10ms", "--variant", "jsonb-manual", "--out", dir.toString());
        assertEquals(0, run.code(), run.out() + run.err());
        withoutChecks(dir);

        CommandRun check = cli(db, "check", "--ledger", dir.toString());
        assertEquals(0, check.code(), check.out() + check.err());
        RunResult r = ResultFile.read(dir);
        assertEquals(EventChecks.tables(Variant.JSONB_MANUAL).size() + 3, r.checks().size(), r.checks().toString());
        for (Check k : r.checks()) {
            assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail());
        }
        assertTrue(Files.readString(dir.resolve("report.md")).contains(EventChecks.NONE_LOST), "in report.md");

        // One process's ledger of a split run, and a dead driver's: the events no ledger holds cannot be told apart.
        for (Map.Entry<String, Object> p : List.of(Map.<String, Object>entry("worker", "1/2"),
                Map.<String, Object>entry("stopReason", RecoveredRun.DRIVER_DIED))) {
            Object was = withParameter(dir, p.getKey(), p.getValue());
            check = cli(db, "check", "--ledger", dir.toString());
            assertEquals(0, check.code(), p + ": " + check.out() + check.err());
            Check notAdded = checked(dir, EventChecks.NOT_ADDED);
            assertEquals(Check.Status.SKIP, notAdded.status(), p + ": " + notAdded.detail());
            assertEquals(Check.Status.PASS, checked(dir, EventChecks.NONE_LOST).status(), p.toString());
            withParameter(dir, p.getKey(), was);
        }

        // The first event, lost since (live or archived, it is gone from both).
        String lost;
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT min(id::text) FROM (SELECT id FROM " + Variant.EVENTS
                    + " UNION ALL SELECT id FROM " + Variant.ARCHIVE + ") e")) {
                rs.next();
                lost = rs.getString(1);
            }
            assertEquals(1, s.executeUpdate("DELETE FROM " + Variant.EVENTS + " WHERE id = '" + lost + "'")
                    + s.executeUpdate("DELETE FROM " + Variant.ARCHIVE + " WHERE id = '" + lost + "'"));
        }
        CommandRun refuted = cli(db, "check", "--ledger", dir.toString());
        assertEquals(1, refuted.code(), refuted.out() + refuted.err());
        Check noneLost = checked(dir, EventChecks.NONE_LOST);
        assertEquals(Check.Status.FAIL, noneLost.status());
        assertTrue(noneLost.detail().startsWith("1 violation: id=" + lost), noneLost.detail());
        assertTrue(refuted.err().contains(EventChecks.NONE_LOST), refuted.err());

        // The ledger of another variant's run: not the tables it left.
        Object variant = withParameter(dir, RunCommand.VARIANT, "text");
        CommandRun other = cli(db, "check", "--ledger", dir.toString());
        assertEquals(2, other.code(), other.out() + other.err());
        assertEquals(1, other.err().strip().lines().count(), other.err());
        assertTrue(other.err().contains("text") && other.err().contains("jsonb-manual"), other.err());
        withParameter(dir, RunCommand.VARIANT, variant);

        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CommandRun none = cli(db, "check", "--ledger", empty.toString());
        assertEquals(2, none.code(), none.out() + none.err());
        assertEquals(1, none.err().strip().lines().count(), none.err());
        assertTrue(none.err().contains("holds no " + EventLedger.FILE), none.err());
    }

    /** The run's result without its checks, as a result recovered after the driver died has none. */
    private static void withoutChecks(Path dir) throws Exception {
        RunResult r = ResultFile.read(dir);
        ResultFile.write(r.toBuilder().checks(List.of()).build(), dir.resolve(ResultFile.NAME));
    }

    /** The run's result with parameter {@code name} set to {@code value} (null: removed); returns what it was. */
    private static Object withParameter(Path dir, String name, Object value) throws Exception {
        RunResult r = ResultFile.read(dir);
        Map<String, Object> p = new LinkedHashMap<>(r.parameters());
        Object was = value == null ? p.remove(name) : p.put(name, value);
        ResultFile.write(r.toBuilder().parameters(p).build(), dir.resolve(ResultFile.NAME));
        return was;
    }

    private static Check checked(Path dir, String name) {
        return ResultFile.read(dir).checks().stream().filter(k -> k.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + dir.resolve(ResultFile.NAME)));
    }
}

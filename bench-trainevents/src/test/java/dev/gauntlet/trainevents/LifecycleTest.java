package dev.gauntlet.trainevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gauntlet.core.db.ConnectionSettings;
import dev.gauntlet.core.db.JdbcTarget;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each variant's lifecycle against a real PostgreSQL: a short run moves events through every state into the archive
 * and passes every check; the checks fail when an event is deleted behind the driver's back or a flat column stops
 * matching its payload.
 */
@ExtendWith(PostgresExtension.class)
class LifecycleTest {

    private static final TrainEventsWorkload.Shape SHAPE =
            new TrainEventsWorkload.Shape(5, 20, 0, 0, 0.1);

    private static EventLedger run(TestDatabase db, Variant v) throws Exception {
        EventLedger ledger = new EventLedger();
        try (Connection c = db.connect()) {
            EventTables.create(c, v, false, 300, 42, ledger);
        }
        RunPlan plan = RunPlan.builder().clients(4, 0).workers(4).duration(Duration.ofSeconds(3))
                .reportEvery(Duration.ofSeconds(1)).seed(9).build();
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()),
                Connection.TRANSACTION_READ_COMMITTED)) {
            RunRecord record = new Runner<>(plan, new TrainEventsWorkload(v, ledger, SHAPE), target, RunListener.NONE,
                    null).run();
            assertTrue(record.toString().length() > 0);
        }
        return ledger;
    }

    private static Map<String, Check> checks(TestDatabase db, Variant v, EventLedger ledger) throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            return EventChecks.run(c, v, ledger).stream().collect(Collectors.toMap(Check::name, k -> k));
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void aShortRunMovesEventsThroughEveryStateAndPassesEveryCheck(Variant v, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("te_" + v.name().toLowerCase());
        EventLedger ledger = run(db, v);
        assertTrue(ledger.size() > 300, "the run added events: " + ledger.size());
        Map<String, Check> checks = checks(db, v, ledger);
        checks.values().forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
        assertEquals(9, checks.size(), checks.keySet().toString());
        try (Connection c = db.connect()) {
            assertEquals(ledger.size(), count(c, "SELECT (SELECT count(*) FROM train_events) "
                    + "+ (SELECT count(*) FROM train_events_archive)"));
            assertTrue(count(c, "SELECT count(*) FROM train_events_archive WHERE final_status = 'COMPLETE'") > 0);
            assertTrue(count(c, "SELECT count(*) FROM train_events_archive WHERE final_status = 'FAILED'") > 0);
            assertTrue(count(c, "SELECT count(*) FROM train_events_archive WHERE "
                    + v.json("payload") + "->>'processedAt' IS NOT NULL") > 0);
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theChecksFailWhenAnEventIsDeletedOrAFlatColumnDisagreesWithItsPayload(Variant v, TestDatabase server)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_broken_" + v.name().toLowerCase());
        EventLedger ledger = run(db, v);
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM train_events_archive WHERE id = (SELECT id FROM train_events_archive ORDER BY id LIMIT 1)");
                if (v.fillsFlatColumns()) {
                    s.execute("UPDATE train_events SET event_type = 'SIGNAL_CLEARANCE_X' "
                            + "WHERE id = (SELECT id FROM train_events ORDER BY id LIMIT 1)");
                } else {
                    // Generated columns cannot drift from their payload: the database refuses to write them.
                    assertThrows(SQLException.class, () -> s.execute("UPDATE train_events SET event_type = 'X'"));
                }
            }
        }
        Map<String, Check> checks = checks(db, v, ledger);
        Check lost = checks.get("every event added is live or archived (none lost)");
        assertEquals(Check.Status.FAIL, lost.status(), lost.detail());
        assertTrue(lost.detail().startsWith("1 violation: id="), lost.detail());
        Check columns = checks.get("event_type, authority_id, train_id equal the payload's values in train_events");
        assertEquals(v.fillsFlatColumns() ? Check.Status.FAIL : Check.Status.PASS, columns.status(), columns.detail());
        List<Check> others = checks.values().stream().filter(k -> k != lost && k != columns).toList();
        others.forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
    }
}

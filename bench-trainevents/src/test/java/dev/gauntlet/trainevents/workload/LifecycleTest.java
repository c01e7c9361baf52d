package dev.gauntlet.trainevents.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.run.ClientScript;
import dev.gauntlet.core.run.Operation;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.RunRecord;
import dev.gauntlet.core.run.Runner;
import dev.gauntlet.core.run.Step;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.ConnectionSettings;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.adversity.Toxiproxy;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.testing.PostgresExtension;
import dev.gauntlet.testing.TestDatabase;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.schema.EventTables;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each variant's lifecycle against a real PostgreSQL: a short run moves events through every state into the archive
 * and passes every check; the checks fail when an event is deleted behind the driver's back, a flat column stops
 * matching its payload, or a process or archive the driver heard commit is undone (even one the run then redid).
 */
@ExtendWith(PostgresExtension.class)
@Tag("long")
class LifecycleTest {

    private static final TrainEventsWorkload.Shape SHAPE =
            new TrainEventsWorkload.Shape(5, 20, 0, 0, 0.1);
    private static final String NONE_UNDONE =
            "every process and archive the driver heard commit is in the tables (none undone)";

    private static EventLedger run(TestDatabase db, Variant v) throws Exception {
        EventLedger ledger = new EventLedger();
        try (Connection c = db.connect()) {
            EventTables.create(c, v, false, 300, 42, ledger);
        }
        RunPlan plan = RunPlan.builder().clients(4, 0).workers(4).duration(Duration.ofSeconds(3))
                .reportEvery(Duration.ofSeconds(1)).seed(9).build();
        run(db, plan, new TrainEventsWorkload(v, ledger, SHAPE));
        return ledger;
    }

    private static void run(TestDatabase db, RunPlan plan, Workload<Connection> workload) throws Exception {
        try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(db.jdbcUrl(), db.user(), db.password()),
                Connection.TRANSACTION_READ_COMMITTED)) {
            RunRecord record = new Runner<>(plan, workload, target, RunListener.NONE, null).run();
            assertTrue(record.toString().length() > 0);
        }
    }

    /**
     * A last phase of the driver with archiving left out: one client adds a batch, then only processes, so events it
     * heard commit COMPLETE (and FAILED) are still live when the run ends, beside those the full cycle archived.
     */
    private static void processWithoutArchiving(TestDatabase db, Variant v, EventLedger ledger) throws Exception {
        RunPlan plan = RunPlan.builder().clients(1, 0).workers(1).duration(Duration.ofSeconds(1))
                .reportEvery(Duration.ofSeconds(1)).seed(10).build();
        run(db, plan, new Workload<>() {
            @Override
            public List<String> operationNames() {
                return List.of(Lifecycle.ADD, Lifecycle.PROCESS);
            }

            @Override
            public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
                Lifecycle cycle = new Lifecycle(v, ledger, random, SHAPE.failShare(), 0);
                cycle.begin(20, 0);
                return new ClientScript<>() {
                    private boolean added;

                    @Override
                    public Step<Connection> next() {
                        if (!added) {
                            added = true;
                            return Step.now(cycle.add);
                        }
                        return new Step<>(cycle.process, 5_000_000);
                    }
                };
            }
        });
    }

    /** The events a processing statement advanced and their new states, checking it edited as many payloads. */
    private static Map<String, String> advanced(PreparedStatement step, int expected) throws SQLException {
        Map<String, String> states = new HashMap<>();
        try (ResultSet rs = step.executeQuery()) {
            while (rs.next()) {
                states.put(rs.getString(1), rs.getString(2));
                assertEquals(expected, rs.getLong(3), "payloads edited");
            }
        }
        assertEquals(expected, states.size());
        return states;
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), "a row from " + sql);
            return rs.getString(1);
        }
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

    /**
     * The add statement builds each payload in the database as {@link RailEvents#payload} spells it, from the event's
     * id, its time and its catalogue document, and fills the flat columns; the process statement changes the two
     * lifecycle fields and nothing else (in TEXT, the exact string), advancing the status rows with them.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void theStatementsBuildAndEditEachDocumentAsSpelledOut(Variant v, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("te_docs_" + v.name().toLowerCase());
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            EventTables.create(c, v, false, 0, 5, null);
            EventBatch batch = EventBatch.draw(new SplittableRandom(8), 12, 1_700_000_000_123L);
            try (PreparedStatement add = c.prepareStatement(v.addSql())) {
                batch.bind(add, c);
                assertEquals(12, add.executeUpdate());
            }
            String query = "SELECT e.id, e.payload::text, e.event_type, e.authority_id, e.train_id, d.body, d.event_type, "
                    + "d.authority_id, d.train_id FROM train_events e JOIN train_event_documents d "
                    + "ON d.body = substr(e.payload::text, strpos(e.payload::text, '\"eventType\"')) ORDER BY e.id";
            Map<String, String> added = new TreeMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(v == Variant.TEXT ? query
                    : "SELECT e.id, e.payload::text, e.event_type, e.authority_id, e.train_id FROM train_events e")) {
                while (rs.next()) {
                    added.put(rs.getString(1), rs.getString(2));
                    if (v == Variant.TEXT) {
                        assertEquals(RailEvents.payload(UUID.fromString(rs.getString(1)), 1_700_000_000_123L,
                                rs.getString(6)), rs.getString(2));
                        assertEquals(List.of(rs.getString(7), "" + rs.getString(8), "" + rs.getString(9)),
                                List.of(rs.getString(3), "" + rs.getString(4), "" + rs.getString(5)));
                    }
                }
            }
            assertEquals(12, added.size());
            UUID[] ids = added.keySet().stream().map(UUID::fromString)
                    .toArray(UUID[]::new);
            String[] states = new String[ids.length];
            Arrays.fill(states, "PROCESSING");
            states[0] = "COMPLETE";
            try (PreparedStatement step = c.prepareStatement(v.claimedStepSql())) {
                step.setArray(1, c.createArrayOf("uuid", ids));
                step.setArray(2, c.createArrayOf("text", states));
                step.setLong(3, 1_700_000_009_999L);
                assertEquals(12, advanced(step, 12).size());
            }
            ObjectMapper json = new ObjectMapper();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT e.id, e.payload::text, "
                    + "s.status FROM train_events e JOIN train_event_status s ON s.event_id = e.id")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    String id = rs.getString(1);
                    String state = id.equals(ids[0].toString()) ? "COMPLETE" : "PROCESSING";
                    assertEquals(state, rs.getString(3));
                    ObjectNode expected =
                            (ObjectNode) json.readTree(added.get(id));
                    expected.put("lifecycle", state).put("processedAt", 1_700_000_009_999L);
                    assertEquals(expected, json.readTree(rs.getString(2)), id);
                    assertEquals(id, expected.get("eventId").asText());
                    if (v == Variant.TEXT) {
                        assertEquals(added.get(id).replace("\"lifecycle\":\"PENDING\",\"processedAt\":null",
                                "\"lifecycle\":\"" + state + "\",\"processedAt\":1700000009999"), rs.getString(2));
                    }
                }
                assertEquals(12, n);
            }
            // The whole of processing in one statement: the 11 PROCESSING events claimed, every one FAILED (share 1).
            try (PreparedStatement process = c.prepareStatement(v.processSql())) {
                process.setInt(1, 100);
                process.setDouble(2, 1.0);
                process.setLong(3, 1_700_000_019_999L);
                Map<String, String> failed = advanced(process, 11);
                assertEquals(Set.of("FAILED"), Set.copyOf(failed.values()));
                assertTrue(!failed.containsKey(ids[0].toString()), "the COMPLETE event is not claimed again");
            }
            assertEquals(11, count(c, "SELECT count(*) FROM train_events WHERE " + v.json("payload")
                    + "->>'lifecycle' = 'FAILED' AND " + v.json("payload") + "->>'processedAt' = '1700000019999'"));
            if (v == Variant.JSONB) {
                // The inverted index answers containment on a path, the seed's "filtering on arbitrary JSON paths",
                // for the documents as the edits left them.
                String failed = "SELECT count(*) FROM train_events WHERE payload @> '{\"lifecycle\":\"FAILED\"}'";
                try (Statement s = c.createStatement()) {
                    s.execute("SET enable_seqscan = off");
                    StringBuilder plan = new StringBuilder();
                    try (ResultSet rs = s.executeQuery("EXPLAIN " + failed)) {
                        while (rs.next()) {
                            plan.append(rs.getString(1)).append('\n');
                        }
                    }
                    assertTrue(plan.toString().contains("train_events_payload_idx"), plan.toString());
                    assertEquals(11, count(c, failed));
                    s.execute("RESET enable_seqscan");
                }
            }
        }
        Map<String, Check> checks;
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            checks = SqlChecks.run(c, EventChecks.tables(v),
                    CheckScope.all()).stream().collect(Collectors.toMap(Check::name, k -> k));
        }
        assertEquals(7, checks.size(), checks.keySet().toString());
        checks.values().forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
    }

    /**
     * An add in auto-commit whose answer never comes back (Toxiproxy holds everything the server sends, then closes
     * the connection): the server has committed the batch, the driver cannot know, and the ledger must keep the batch
     * as maybe added, or "no event the driver did not add" fails on events that are there. The driver says so before
     * the statement runs; said after it, as an explicit transaction may, the check failed here (75 events in a real
     * run that lost a connection this way).
     */
    @Test
    void anAddWhoseAnswerIsLostLeavesItsEventsMaybeAddedAndTheChecksPass(TestDatabase server) throws Exception {
        Optional<java.nio.file.Path> binary = Toxiproxy.find();
        Assumptions.assumeTrue(binary.isPresent(),
                "Toxiproxy is not installed: " + Toxiproxy.INSTALL);
        TestDatabase db = server.freshDatabase("te_lost_answer");
        Variant v = Variant.TEXT;
        EventLedger ledger = new EventLedger();
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            EventTables.create(c, v, false, 0, 3, ledger);
        }
        Matcher m = Pattern.compile("//([^:/]+):(\\d+)/").matcher(db.jdbcUrl());
        assertTrue(m.find(), db.jdbcUrl());
        try (Toxiproxy toxiproxy = Toxiproxy.start()) {
            int port = toxiproxy.proxy("pg", m.group(1), Integer.parseInt(m.group(2)));
            String proxied = db.jdbcUrl().replace("//" + m.group(1) + ":" + m.group(2) + "/", "//127.0.0.1:" + port + "/");
            RunPlan plan = RunPlan.builder().clients(1, 0).workers(1).iterations(2)
                    .reportEvery(Duration.ofSeconds(1)).seed(4).build();
            Operation<Connection> connect = Operation.of("connect",
                    c -> c.isValid(5));
            Workload<Connection> oneAdd = new Workload<>() {
                @Override
                public List<String> operationNames() {
                    return List.of("connect", Lifecycle.ADD);
                }

                @Override
                public ClientScript<Connection> client(int index, int clients, SplittableRandom random) {
                    Lifecycle cycle = new Lifecycle(v, ledger, random, SHAPE.failShare(), 0);
                    cycle.begin(25, 0);
                    return new ClientScript<>() {
                        private int steps;

                        @Override
                        public Step<Connection> next() {
                            if (steps++ == 0) {
                                return Step.now(connect); // the session open, before its answers are held
                            }
                            try {
                                toxiproxy.addToxic("pg", "answers-lost", "timeout", "downstream", 1.0,
                                        Map.of("timeout", 500));
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                            return Step.now(cycle.add);
                        }
                    };
                }
            };
            try (JdbcTarget target = JdbcTarget.direct(new ConnectionSettings(proxied, db.user(), db.password()),
                    Connection.TRANSACTION_READ_COMMITTED)) {
                RunRecord record = new Runner<>(plan, oneAdd, target, RunListener.NONE, null).run();
                assertEquals(Map.of("ambiguous-commit", 1L), record.intervals().get(0).failures(),
                        "the add's answer was lost");
            }
        }
        try (Connection c = db.connect()) {
            assertEquals(25, count(c, "SELECT count(*) FROM train_events"), "the server committed the batch");
        }
        assertEquals(List.of(0L, 25L), List.of((long) ledger.size(), ledger.uncertainSize()),
                "the batch is in the ledger, as maybe added");
        Map<String, Check> checks = checks(db, v, ledger);
        checks.values().forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void aShortRunMovesEventsThroughEveryStateAndPassesEveryCheck(Variant v, TestDatabase server) throws Exception {
        TestDatabase db = server.freshDatabase("te_" + v.name().toLowerCase());
        EventLedger ledger = run(db, v);
        assertTrue(ledger.size() > 300, "the run added events: " + ledger.size());
        Map<String, Check> checks = checks(db, v, ledger);
        checks.values().forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
        assertEquals(10, checks.size(), checks.keySet().toString());
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

    /**
     * What a failover or restore that loses acknowledged commits of later steps leaves: an archive undone (the event
     * live again, COMPLETE, its archive row gone) and a process undone (a COMPLETE event still live PROCESSING again,
     * its payload's lifecycle too). The tables agree with themselves and every event is still there.
     *
     * @return the event whose archive was undone, then the one whose process was
     */
    private static String[] undoAnArchiveAndAProcess(TestDatabase db, Variant v) throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(true);
            String unarchived = one(c, "SELECT id FROM train_events_archive WHERE final_status = 'COMPLETE' "
                    + "ORDER BY id LIMIT 1");
            String unprocessed = one(c, "SELECT event_id FROM train_event_status WHERE status = 'COMPLETE' "
                    + "ORDER BY event_id LIMIT 1");
            String flat = v.fillsFlatColumns() ? ", event_type, authority_id, train_id" : "";
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO train_events (id, created_at, payload" + flat + ") SELECT id, created_at, payload"
                        + flat + " FROM train_events_archive WHERE id = '" + unarchived + "'");
                s.execute("INSERT INTO train_event_status (event_id, status) VALUES ('" + unarchived + "', 'COMPLETE')");
                s.execute("DELETE FROM train_events_archive WHERE id = '" + unarchived + "'");
                String lifecycle = v == Variant.TEXT
                        ? "((payload::jsonb) || jsonb_build_object('lifecycle', 'PROCESSING'))::text"
                        : "payload || jsonb_build_object('lifecycle', 'PROCESSING')";
                s.execute("UPDATE train_events SET payload = " + lifecycle + " WHERE id = '" + unprocessed + "'");
                s.execute("UPDATE train_event_status SET status = 'PROCESSING' WHERE event_id = '" + unprocessed + "'");
            }
            return new String[] {unarchived, unprocessed};
        }
    }

    /**
     * An archive and a process undone after their commit (see {@link #undoAnArchiveAndAProcess}): the tables alone
     * cannot tell, and every event is still there, so only the ledger of the steps the driver heard commit can; its
     * check names both events, with what the driver heard and what the tables hold, and is the only one to fail.
     */
    @ParameterizedTest
    @EnumSource(Variant.class)
    void anArchiveAndAProcessUndoneAfterTheirCommitFailOnlyTheLedgersStepCheck(Variant v, TestDatabase server)
            throws Exception {
        TestDatabase db = server.freshDatabase("te_undone_" + v.name().toLowerCase());
        EventLedger ledger = run(db, v);
        processWithoutArchiving(db, v, ledger);
        String[] undoneIds = undoAnArchiveAndAProcess(db, v);
        String unarchived = undoneIds[0];
        String unprocessed = undoneIds[1];
        Map<String, Check> checks = checks(db, v, ledger);
        Check undone = checks.get(NONE_UNDONE);
        assertTrue(undone != null, "no check named '" + NONE_UNDONE + "' in " + checks.keySet());
        assertEquals(Check.Status.FAIL, undone.status(), undone.detail());
        String first = unarchived.compareTo(unprocessed) < 0 ? unarchived : unprocessed;
        assertTrue(undone.detail().startsWith("2 violations, first: id=" + first + " "), undone.detail());
        assertTrue(undone.detail().contains("id=" + unarchived + " heard=PROCESSING,COMPLETE,ARCHIVED found=COMPLETE"),
                undone.detail());
        assertTrue(undone.detail().contains("id=" + unprocessed + " heard=PROCESSING,COMPLETE found=PROCESSING"),
                undone.detail());
        checks.values().stream().filter(k -> k != undone)
                .forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
    }

    /**
     * The same losses in the middle of a run, which then goes on: the driver claims the event PROCESSING again and
     * archives the live one again, so both end as far along as the driver ever heard. A step heard twice still shows
     * the first was undone.
     */
    @Test
    void anUndoneStepTheRunThenRedidIsStillCaughtByTheStepHeardTwice(TestDatabase server) throws Exception {
        Variant v = Variant.JSONB;
        TestDatabase db = server.freshDatabase("te_redone");
        EventLedger ledger = run(db, v);
        processWithoutArchiving(db, v, ledger);
        String[] undoneIds = undoAnArchiveAndAProcess(db, v);
        RunPlan plan = RunPlan.builder().clients(2, 0).workers(2).duration(Duration.ofSeconds(2))
                .reportEvery(Duration.ofSeconds(1)).seed(11).build();
        run(db, plan, new TrainEventsWorkload(v, ledger, SHAPE));
        try (Connection c = db.connect()) {
            for (String id : undoneIds) {
                assertEquals(1, count(c, "SELECT count(*) FROM train_events_archive WHERE id = '" + id + "'"),
                        id + " archived again by the run that went on");
            }
        }
        Map<String, Check> checks = checks(db, v, ledger);
        Check undone = checks.get(NONE_UNDONE);
        assertEquals(Check.Status.FAIL, undone.status(), undone.detail());
        assertTrue(undone.detail().startsWith("2 violations, first: id="), undone.detail());
        assertTrue(undone.detail().contains("id=" + undoneIds[0] + " heard=PROCESSING,COMPLETE,ARCHIVED,ARCHIVED "
                + "found=ARCHIVED(COMPLETE)"), undone.detail());
        assertTrue(undone.detail().matches(".*id=" + undoneIds[1]
                + " heard=PROCESSING,COMPLETE,(COMPLETE|FAILED),ARCHIVED found=ARCHIVED\\((COMPLETE|FAILED)\\).*"),
                undone.detail());
        checks.values().stream().filter(k -> k != undone)
                .forEach(k -> assertEquals(Check.Status.PASS, k.status(), k.name() + ": " + k.detail()));
    }
}

package dev.gauntlet.trainevents.checks;

import dev.gauntlet.sql.LedgerCopy;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.ReadOnlySnapshot;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlCheck;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.trainevents.workload.EventLedger;
import dev.gauntlet.trainevents.workload.Variant;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The lifecycle's invariants, as queries for the rows that break them. From the tables alone: no event both live
 * and archived, a status row for every live event and an event for every status row, only terminal events archived,
 * each payload's lifecycle equal to its status, and the flat columns equal to the payload's values. With the run's
 * {@link EventLedger} copied in beside them: every event the driver added (or heard processed or archived) is in the
 * events table or the archive, nothing is there the driver did not add, and no event is in a state behind one the
 * driver heard a process or archive commit ({@value #NONE_UNDONE}). A run split between processes ({@code --worker})
 * checks once, against every process's ledger stored in {@value Variant#SHARED_LEDGERS}: any process's clients
 * process and archive any process's events.
 */
public final class EventChecks {

    private static final String LEDGER = "te_ledger";
    /** The columns of a copied ledger: an event, whether its commit was heard, and the state it moved to. */
    private static final String LEDGER_COLUMNS = "id uuid NOT NULL, certain boolean NOT NULL, state text NOT NULL";
    /**
     * The check that compares every event's state with the furthest the driver heard it reach: a process or archive
     * acknowledged and then lost (a failover, a restore) leaves the event behind, PROCESSING again, live again.
     */
    public static final String NONE_UNDONE =
            "every process and archive the driver heard commit is in the tables (none undone)";
    /** The check that every event the driver heard added is still there. */
    public static final String NONE_LOST = "every event added is live or archived (none lost)";
    /** The check that the tables hold no event the ledger does not: it needs every add of the run in the ledger. */
    public static final String NOT_ADDED = "no event the driver did not add";
    /** The violations of a failed check listed in its detail; all are counted. */
    private static final int LISTED = 5;

    private EventChecks() {
    }

    /** What the tables alone can show. */
    public static List<SqlCheck> tables(Variant v) {
        String events = Variant.EVENTS;
        String status = Variant.STATUS;
        String archive = Variant.ARCHIVE;
        List<SqlCheck> checks = new ArrayList<>();
        checks.add(SqlCheck.named("no event both live and archived")
                .violations("SELECT e.id FROM " + events + " e JOIN " + archive + " a ON a.id = e.id")
                .rowKey("id").build());
        checks.add(SqlCheck.named("every live event has its status row")
                .violations("SELECT e.id FROM " + events + " e WHERE NOT EXISTS (SELECT 1 FROM " + status
                        + " s WHERE s.event_id = e.id)")
                .rowKey("id").build());
        checks.add(SqlCheck.named("every status row has its event")
                .violations("SELECT s.event_id AS id FROM " + status + " s WHERE NOT EXISTS (SELECT 1 FROM " + events
                        + " e WHERE e.id = s.event_id)")
                .rowKey("id").build());
        checks.add(SqlCheck.named("only COMPLETE and FAILED events archived")
                .violations("SELECT id, final_status FROM " + archive
                        + " WHERE final_status NOT IN ('COMPLETE', 'FAILED')")
                .rowKey("id").build());
        checks.add(SqlCheck.named("each payload's lifecycle equals its status")
                .violations("SELECT e.id, s.status, " + v.json("e.payload") + "->>'lifecycle' AS lifecycle FROM "
                        + events + " e JOIN " + status + " s ON s.event_id = e.id WHERE s.status IS DISTINCT FROM "
                        + v.json("e.payload") + "->>'lifecycle' UNION ALL SELECT id, final_status, "
                        + v.json("payload") + "->>'lifecycle' FROM " + archive + " WHERE final_status IS DISTINCT FROM "
                        + v.json("payload") + "->>'lifecycle'")
                .rowKey("id").build());
        for (String table : List.of(events, archive)) {
            String p = v.json("payload");
            checks.add(SqlCheck.named("event_type, authority_id, train_id equal the payload's values in " + table)
                    .violations("SELECT id, event_type, authority_id, train_id, " + p
                            + "->>'eventType' AS \"payload eventType\" FROM " + table
                            + " WHERE event_type IS DISTINCT FROM " + p + "->>'eventType' "
                            + "OR authority_id IS DISTINCT FROM " + p + "#>>'{authority,id}' "
                            + "OR train_id IS DISTINCT FROM " + p + "#>>'{train,id}' "
                            + "OR id::text IS DISTINCT FROM " + p + "->>'eventId'")
                    .rowKey("id").build());
        }
        return checks;
    }

    /** The ledger's checks first (none lost, none unexpected), then the tables'. */
    public static List<Check> run(Connection c, Variant v, EventLedger ledger) throws SQLException {
        return run(c, v, ledger, null);
    }

    /**
     * The checks of {@link #run(Connection, Variant, EventLedger)}, of a ledger that may lack some of the run's adds
     * when {@code partial} says why (one process's of a split run, a driver that died with adds in flight): then
     * {@value #NOT_ADDED} is skipped with that reason, and the others, which ask only what the ledger holds, stand.
     */
    public static List<Check> run(Connection c, Variant v, EventLedger ledger, String partial) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + LEDGER);
            s.execute("CREATE TEMPORARY TABLE " + LEDGER + " (" + LEDGER_COLUMNS + ")");
        }
        LedgerCopy.into(c, LEDGER + " (id, certain, state)", out -> ledger.copyTo(out, ""));
        try {
            return against(c, v, LEDGER, partial);
        } finally {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + LEDGER);
            }
        }
    }

    /** Creates the empty table the processes of a split run store their ledgers in (worker 0, with the tables). */
    public static void createSharedLedgers(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + Variant.SHARED_LEDGERS);
            s.execute("CREATE TABLE " + Variant.SHARED_LEDGERS + " (worker int NOT NULL, " + LEDGER_COLUMNS + ")");
        }
    }

    /** Stores {@code ledger} as worker {@code worker}'s, for {@link #runOverStored}. */
    public static void store(Connection c, int worker, EventLedger ledger) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + Variant.SHARED_LEDGERS + " WHERE worker = " + worker);
        }
        LedgerCopy.into(c, Variant.SHARED_LEDGERS + " (worker, id, certain, state)",
                out -> ledger.copyTo(out, worker + "\t"));
    }

    /** The checks of {@link #run}, against every process's stored ledger at once. */
    public static List<Check> runOverStored(Connection c, Variant v) throws SQLException {
        return against(c, v, Variant.SHARED_LEDGERS, null);
    }

    /**
     * The ledger's checks and the tables', with the ledger in {@code ledgerTable} (id, certain, state), in one
     * snapshot; {@value #NOT_ADDED} skipped for why the ledger is {@code partial}, unless that is null.
     */
    private static List<Check> against(Connection c, Variant v, String ledgerTable, String partial)
            throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE INDEX IF NOT EXISTS " + ledgerTable + "_id ON " + ledgerTable + " (id)");
            s.execute("ANALYZE " + ledgerTable);
        }
        List<SqlCheck> checks = new ArrayList<>();
        // An event the driver heard added, processed or archived was in the tables: it must still be (once, DISTINCT).
        checks.add(SqlCheck.named(NONE_LOST)
                .violations("SELECT DISTINCT l.id FROM " + ledgerTable + " l WHERE l.certain "
                        + "AND NOT EXISTS (SELECT 1 FROM " + Variant.EVENTS + " e WHERE e.id = l.id) "
                        + "AND NOT EXISTS (SELECT 1 FROM " + Variant.ARCHIVE + " a WHERE a.id = l.id)")
                .rowKey("id").build());
        if (partial == null) {
            checks.add(SqlCheck.named(NOT_ADDED)
                    .violations("SELECT x.id FROM (SELECT id FROM " + Variant.EVENTS + " UNION ALL SELECT id FROM "
                            + Variant.ARCHIVE + ") x WHERE NOT EXISTS (SELECT 1 FROM " + ledgerTable
                            + " l WHERE l.id = x.id AND l.state = 'PENDING')")
                    .rowKey("id").build());
        }
        SqlCheck undone = noneUndone(ledgerTable);
        checks.add(undone);
        checks.addAll(tables(v));
        try (ReadOnlySnapshot snapshot = ReadOnlySnapshot.begin(c)) {
            List<Check> results = new ArrayList<>(SqlChecks.run(snapshot, checks, CheckScope.all()));
            int i = checks.indexOf(undone);
            results.set(i, listTheFirstFew(c, undone, results.get(i)));
            if (partial != null) {
                results.add(1, Check.skip(NOT_ADDED, partial));
            }
            return results;
        }
    }

    /** How far a state is along the lifecycle; COMPLETE and FAILED are both the end of processing. */
    private static String rank(String state) {
        return "CASE " + state + " WHEN 'PROCESSING' THEN 1 WHEN 'COMPLETE' THEN 2 WHEN 'FAILED' THEN 2 "
                + "WHEN 'ARCHIVED' THEN 3 ELSE 0 END";
    }

    /**
     * Every event present whose state is behind what the driver heard commit: the furthest step heard (PROCESSING <
     * COMPLETE or FAILED < ARCHIVED) further than its state in the tables (its status row's status, or ARCHIVED), or
     * a terminal state heard (COMPLETE or FAILED) other than the one it has (live, or archived as final_status), or a
     * step heard twice (a claim that found the event PENDING or PROCESSING again, an archive that found it live
     * again: the first was undone, then redone). Steps whose outcome never came back are left out: either is right.
     * Events in neither table are the lost ones, and a live event without its status row another check's.
     */
    private static SqlCheck noneUndone(String ledgerTable) {
        String found = "CASE WHEN a.id IS NOT NULL THEN 3 ELSE " + rank("s.status") + " END";
        String foundTerminal = "CASE WHEN a.id IS NOT NULL THEN a.final_status "
                + "WHEN s.status IN ('COMPLETE', 'FAILED') THEN s.status END";
        String heard = "SELECT l.id, max(" + rank("l.state") + ") AS furthest, "
                + "max(l.state) FILTER (WHERE l.state IN ('COMPLETE', 'FAILED')) AS terminal, "
                + "greatest(count(*) FILTER (WHERE l.state = 'PROCESSING'), "
                + "count(*) FILTER (WHERE l.state IN ('COMPLETE', 'FAILED')), "
                + "count(*) FILTER (WHERE l.state = 'ARCHIVED')) AS most "
                + "FROM " + ledgerTable + " l WHERE l.certain AND l.state <> 'PENDING' GROUP BY l.id";
        return SqlCheck.named(NONE_UNDONE)
                .violations("SELECT h.id, (SELECT string_agg(x.state, ',' ORDER BY " + rank("x.state")
                        + ", x.state) FROM " + ledgerTable
                        + " x WHERE x.id = h.id AND x.certain AND x.state <> 'PENDING') AS heard, "
                        + "CASE WHEN a.id IS NOT NULL THEN 'ARCHIVED(' || a.final_status || ')' ELSE s.status END "
                        + "AS found FROM (" + heard + ") h LEFT JOIN " + Variant.ARCHIVE + " a ON a.id = h.id "
                        + "LEFT JOIN " + Variant.STATUS + " s ON s.event_id = h.id "
                        + "WHERE (a.id IS NOT NULL OR s.event_id IS NOT NULL) AND (" + found + " < h.furthest "
                        + "OR (h.terminal IS NOT NULL AND " + foundTerminal + " IS DISTINCT FROM h.terminal) "
                        + "OR h.most > 1)")
                .rowKey("id").build();
    }

    /**
     * A failed check's detail names its first violation; this adds the next ones, up to {@value #LISTED}, from the
     * same snapshot. A detail it cannot extend (a query that failed, here or before) is kept as it is.
     */
    private static Check listTheFirstFew(Connection c, SqlCheck check, Check result) {
        if (result.status() != Check.Status.FAIL || result.detail().startsWith("query failed")
                || result.detail().startsWith("1 violation")) {
            return result;
        }
        StringBuilder detail = new StringBuilder(result.detail());
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v.* FROM (" + check.violations()
                + ") AS v ORDER BY " + check.rowKey() + " OFFSET 1 LIMIT " + (LISTED - 1))) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                detail.append(';');
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    detail.append(' ').append(meta.getColumnLabel(i)).append('=').append(rs.getString(i));
                }
            }
        } catch (SQLException e) {
            return result; // the first violation and the count stand; the snapshot is closed next
        }
        return new Check(result.name(), result.status(), detail.toString());
    }
}

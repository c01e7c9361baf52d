package dev.gauntlet.trainevents;

import dev.gauntlet.core.db.CheckScope;
import dev.gauntlet.core.db.SqlCheck;
import dev.gauntlet.core.db.SqlChecks;
import dev.gauntlet.core.result.Check;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.PGCopyOutputStream;

/**
 * The lifecycle's invariants, as queries for the rows that break them. From the tables alone: no event both live
 * and archived, a status row for every live event and an event for every status row, only terminal events archived,
 * each payload's lifecycle equal to its status, and the flat columns equal to the payload's values. With the run's
 * {@link EventLedger} copied in beside them: every event the driver added is in the events table or the archive, and
 * nothing is there the driver did not add. A run split between processes ({@code --worker}) checks once, against
 * every process's ledger stored in {@value #SHARED_LEDGERS}: any process's clients process and archive any process's
 * events.
 */
public final class EventChecks {

    private static final String LEDGER = "te_ledger";
    /** The ledgers of a split run's processes, by worker. */
    static final String SHARED_LEDGERS = "te_ledgers";

    private EventChecks() {
    }

    /** What the tables alone can show. */
    public static List<SqlCheck> tables(Variant v) {
        String events = Variant.EVENTS;
        String status = Variant.STATUS;
        String archive = Variant.ARCHIVE;
        List<SqlCheck> checks = new ArrayList<>();
        checks.add(new SqlCheck("no event both live and archived",
                "SELECT e.id FROM " + events + " e JOIN " + archive + " a ON a.id = e.id", "id", false, false));
        checks.add(new SqlCheck("every live event has its status row",
                "SELECT e.id FROM " + events + " e WHERE NOT EXISTS (SELECT 1 FROM " + status
                        + " s WHERE s.event_id = e.id)", "id", false, false));
        checks.add(new SqlCheck("every status row has its event",
                "SELECT s.event_id AS id FROM " + status + " s WHERE NOT EXISTS (SELECT 1 FROM " + events
                        + " e WHERE e.id = s.event_id)", "id", false, false));
        checks.add(new SqlCheck("only COMPLETE and FAILED events archived",
                "SELECT id, final_status FROM " + archive + " WHERE final_status NOT IN ('COMPLETE', 'FAILED')",
                "id", false, false));
        checks.add(new SqlCheck("each payload's lifecycle equals its status",
                "SELECT e.id, s.status, " + v.json("e.payload") + "->>'lifecycle' AS lifecycle FROM " + events
                        + " e JOIN " + status + " s ON s.event_id = e.id WHERE s.status IS DISTINCT FROM "
                        + v.json("e.payload") + "->>'lifecycle' UNION ALL SELECT id, final_status, "
                        + v.json("payload") + "->>'lifecycle' FROM " + archive + " WHERE final_status IS DISTINCT FROM "
                        + v.json("payload") + "->>'lifecycle'", "id", false, false));
        for (String table : List.of(events, archive)) {
            String p = v.json("payload");
            checks.add(new SqlCheck("event_type, authority_id, train_id equal the payload's values in " + table,
                    "SELECT id, event_type, authority_id, train_id, " + p + "->>'eventType' AS \"payload eventType\" FROM "
                            + table + " WHERE event_type IS DISTINCT FROM " + p + "->>'eventType' "
                            + "OR authority_id IS DISTINCT FROM " + p + "#>>'{authority,id}' "
                            + "OR train_id IS DISTINCT FROM " + p + "#>>'{train,id}' "
                            + "OR id::text IS DISTINCT FROM " + p + "->>'eventId'", "id", false, false));
        }
        return checks;
    }

    /** The ledger's checks first (none lost, none unexpected), then the tables'. */
    public static List<Check> run(Connection c, Variant v, EventLedger ledger) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + LEDGER);
            s.execute("CREATE TEMPORARY TABLE " + LEDGER + " (id uuid NOT NULL, certain boolean NOT NULL)");
        }
        copy(c, "COPY " + LEDGER + " (id, certain) FROM STDIN", "", ledger);
        try {
            return against(c, v, LEDGER);
        } finally {
            try (Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + LEDGER);
            }
        }
    }

    /** Creates the empty table the processes of a split run store their ledgers in (worker 0, with the tables). */
    static void createSharedLedgers(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + SHARED_LEDGERS);
            s.execute("CREATE TABLE " + SHARED_LEDGERS + " (worker int NOT NULL, id uuid NOT NULL, "
                    + "certain boolean NOT NULL)");
        }
    }

    /** Stores {@code ledger} as worker {@code worker}'s, for {@link #runOverStored}. */
    static void store(Connection c, int worker, EventLedger ledger) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + SHARED_LEDGERS + " WHERE worker = " + worker);
        }
        copy(c, "COPY " + SHARED_LEDGERS + " (worker, id, certain) FROM STDIN", worker + "\t", ledger);
    }

    /** The checks of {@link #run}, against every process's stored ledger at once. */
    static List<Check> runOverStored(Connection c, Variant v) throws SQLException {
        return against(c, v, SHARED_LEDGERS);
    }

    private static void copy(Connection c, String sql, String prefix, EventLedger ledger) throws SQLException {
        try (Writer w = new BufferedWriter(new OutputStreamWriter(new PGCopyOutputStream(c.unwrap(PGConnection.class),
                sql, 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
            ledger.copyTo(w, prefix);
        } catch (IOException e) {
            throw new SQLException("could not copy the ledger: " + e.getMessage(), e);
        }
    }

    /** The ledger's checks and the tables', with the ledger in {@code ledgerTable} (id, certain). */
    private static List<Check> against(Connection c, Variant v, String ledgerTable) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE INDEX IF NOT EXISTS " + ledgerTable + "_id ON " + ledgerTable + " (id)");
            s.execute("ANALYZE " + ledgerTable);
        }
        List<SqlCheck> checks = new ArrayList<>();
        checks.add(new SqlCheck("every event added is live or archived (none lost)",
                "SELECT l.id FROM " + ledgerTable + " l WHERE l.certain AND NOT EXISTS (SELECT 1 FROM " + Variant.EVENTS
                        + " e WHERE e.id = l.id) AND NOT EXISTS (SELECT 1 FROM " + Variant.ARCHIVE
                        + " a WHERE a.id = l.id)", "id", false, false));
        checks.add(new SqlCheck("no event the driver did not add",
                "SELECT x.id FROM (SELECT id FROM " + Variant.EVENTS + " UNION ALL SELECT id FROM " + Variant.ARCHIVE
                        + ") x WHERE NOT EXISTS (SELECT 1 FROM " + ledgerTable + " l WHERE l.id = x.id)", "id", false,
                false));
        checks.addAll(tables(v));
        return SqlChecks.run(c, checks, CheckScope.all());
    }
}

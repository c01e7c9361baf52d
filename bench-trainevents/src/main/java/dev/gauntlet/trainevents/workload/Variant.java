package dev.gauntlet.trainevents.workload;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the events table stores a railway event: the strategy the one transaction code path asks for its SQL.
 *
 * <ul>
 *   <li>{@code jsonb}: payload JSONB; {@code event_type}, {@code authority_id}, {@code train_id} generated (stored)
 *       from the payload; a GIN index on the payload, with the default operator class {@code jsonb_ops} as the
 *       demo's PostgreSQL port has it (INVERTED on CockroachDB; {@code jsonb_path_ops} measured cheaper statement by
 *       statement but no faster end to end, reports/bench-trainevents.md). Processing edits the document as
 *       JSON ({@code payload || jsonb_build_object(...)}).</li>
 *   <li>{@code jsonb-manual}: payload JSONB, the three flat columns filled by the application, B-trees only. Same
 *       JSON edit.</li>
 *   <li>{@code text}: payload TEXT, flat columns filled by the application, B-trees only. Processing edits the
 *       string ({@code regexp_replace} of the two fields; no cast to JSONB and back).</li>
 * </ul>
 *
 * <p>Documents are made and edited by the statements, in the database, as in the demo the workload comes from: the
 * driver sends ids, document numbers ({@link EventCatalogue}) and states, so its work per event is small beside the
 * database's.
 *
 * Every variant has the same status table (PENDING, PROCESSING, COMPLETE, FAILED) and an archive whose payload has
 * the variant's type.
 */
public enum Variant {

    JSONB("jsonb", "jsonb", true),
    JSONB_MANUAL("jsonb-manual", "jsonb", false),
    TEXT("text", "text", false);

    public static final String EVENTS = "train_events";
    public static final String STATUS = "train_event_status";
    public static final String ARCHIVE = "train_events_archive";
    /** The ledgers of a split run's processes, by worker, gathered for one check (dropped with the tables). */
    public static final String SHARED_LEDGERS = "te_ledgers";
    /** The documents new events are made of ({@link EventCatalogue}). */
    public static final String DOCUMENTS = "train_event_documents";

    private final String label;
    private final String payloadType;
    private final boolean generated;

    Variant(String label, String payloadType, boolean generated) {
        this.label = label;
        this.payloadType = payloadType;
        this.generated = generated;
    }

    /** {@code jsonb}, {@code jsonb-manual} or {@code text}, as options and results spell it. */
    public String label() {
        return label;
    }

    public static Variant parse(String name) {
        for (Variant v : values()) {
            if (v.label.equalsIgnoreCase(name.strip())) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + name + "'; expected jsonb, jsonb-manual or text");
    }

    /** True when the application fills event_type, authority_id and train_id (they are generated in jsonb). */
    boolean fillsFlatColumns() {
        return !generated;
    }

    /** The payload as JSONB in SQL that checks it (a cast for TEXT: checks may parse; the workload never does). */
    public String json(String column) {
        return payloadType.equals("text") ? "(" + column + ")::jsonb" : column;
    }

    /** The tables and indexes, created from nothing (the old ones dropped first). */
    public List<String> createStatements(boolean cockroach) {
        List<String> ddl = new ArrayList<>(dropStatements());
        String flat = generated
                ? "event_type text GENERATED ALWAYS AS (payload->>'eventType') STORED, "
                        + "authority_id text GENERATED ALWAYS AS (payload#>>'{authority,id}') STORED, "
                        + "train_id text GENERATED ALWAYS AS (payload#>>'{train,id}') STORED"
                : "event_type text NOT NULL, authority_id text, train_id text";
        ddl.add(EventCatalogue.createStatement());
        ddl.add("CREATE TABLE " + EVENTS + " (id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), "
                + "payload " + payloadType + " NOT NULL, " + flat + ")");
        if (generated) {
            ddl.add(cockroach ? "CREATE INVERTED INDEX train_events_payload_idx ON " + EVENTS + " (payload)"
                    : "CREATE INDEX train_events_payload_idx ON " + EVENTS + " USING gin (payload)");
        }
        ddl.add("CREATE INDEX train_events_type_created_idx ON " + EVENTS + " (event_type, created_at DESC)");
        ddl.add("CREATE INDEX train_events_authority_idx ON " + EVENTS + " (authority_id)");
        ddl.add("CREATE TABLE " + STATUS + " (event_id uuid PRIMARY KEY REFERENCES " + EVENTS + " (id) ON DELETE CASCADE, "
                + "status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETE', 'FAILED')), "
                + "updated_at timestamptz NOT NULL DEFAULT now(), attempts int NOT NULL DEFAULT 0)");
        // One index per claim, each holding only the rows that claim reads, in the order it takes them: an index on
        // (status, updated_at) gives no order for two statuses, so each claim read and sorted the whole backlog.
        ddl.add("CREATE INDEX train_event_status_open_idx ON " + STATUS + " (updated_at) "
                + "WHERE status IN ('PENDING', 'PROCESSING')");
        ddl.add("CREATE INDEX train_event_status_done_idx ON " + STATUS + " (updated_at) "
                + "WHERE status IN ('COMPLETE', 'FAILED')");
        ddl.add("CREATE TABLE " + ARCHIVE + " (id uuid PRIMARY KEY, created_at timestamptz NOT NULL, "
                + "event_type text NOT NULL, authority_id text, train_id text, payload " + payloadType + " NOT NULL, "
                + "final_status text NOT NULL, archived_at timestamptz NOT NULL DEFAULT now())");
        return ddl;
    }

    public static List<String> dropStatements() {
        return List.of("DROP TABLE IF EXISTS " + ARCHIVE, "DROP TABLE IF EXISTS " + STATUS,
                "DROP TABLE IF EXISTS " + EVENTS, "DROP TABLE IF EXISTS " + SHARED_LEDGERS,
                "DROP TABLE IF EXISTS " + DOCUMENTS, "DROP TABLE IF EXISTS " + EVENTS_KEPT,
                "DROP TABLE IF EXISTS " + STATUS_KEPT, "DROP FUNCTION IF EXISTS " + RESTORE_KEPT + "()");
    }

    /** Copies of the seeded events and status rows, kept through a priming run apart ({@link #keepStatements}). */
    static final String EVENTS_KEPT = "train_events_kept";
    static final String STATUS_KEPT = "train_event_status_kept";
    /** PostgreSQL: the function {@link #restoreStatements} run in, called by {@link #restoreKeptSql}. */
    static final String RESTORE_KEPT = "train_events_restore_kept";

    /** The events' columns an insert gives (the generated ones are the server's). */
    private String insertedColumns() {
        return "id, created_at, payload" + (generated ? "" : ", event_type, authority_id, train_id");
    }

    /**
     * Keeps a copy of the events and status rows, for {@link #restoreStatements}. On PostgreSQL also the function
     * that restores them ({@link #restoreKeptSql}), which analyzes the tables after and drops the copies and itself.
     */
    public List<String> keepStatements(boolean cockroach) {
        List<String> sql = new ArrayList<>(List.of("DROP TABLE IF EXISTS " + EVENTS_KEPT,
                "DROP TABLE IF EXISTS " + STATUS_KEPT,
                "CREATE TABLE " + EVENTS_KEPT + " AS SELECT " + insertedColumns() + " FROM " + EVENTS,
                "CREATE TABLE " + STATUS_KEPT + " AS SELECT event_id, status, updated_at, attempts FROM " + STATUS));
        if (!cockroach) {
            List<String> body = new ArrayList<>(restoreStatements());
            body.addAll(List.of("ANALYZE " + EVENTS, "ANALYZE " + STATUS, "DROP FUNCTION " + RESTORE_KEPT + "()"));
            sql.add("CREATE OR REPLACE FUNCTION " + RESTORE_KEPT + "() RETURNS bigint LANGUAGE plpgsql AS $restore$ "
                    + "BEGIN " + String.join("; ", body) + "; RETURN (SELECT count(*) FROM " + EVENTS + "); END "
                    + "$restore$");
        }
        return sql;
    }

    /**
     * PostgreSQL: {@link #restoreStatements}, the tables analyzed, in one query shaped as the workload's own (one
     * statement in auto-commit that returns a row: how many events there are now). Anything else (several
     * statements in one string, an explicit transaction, a command tag with no row count) runs pgjdbc's and TLS's
     * code down paths the workload never takes, and their compiled code, inlined into the workload's, is thrown away
     * and compiled again in the measured minute.
     */
    public static String restoreKeptSql() {
        return "SELECT " + RESTORE_KEPT + "()";
    }

    /**
     * Puts the tables back as {@link #keepStatements} found them: the archive emptied, the events and status rows
     * those kept (new row versions in new files, so no dead rows or grown indexes stay behind), the copies dropped.
     */
    public List<String> restoreStatements() {
        return List.of("TRUNCATE " + ARCHIVE + ", " + STATUS + ", " + EVENTS,
                "INSERT INTO " + EVENTS + " (" + insertedColumns() + ") SELECT " + insertedColumns() + " FROM "
                        + EVENTS_KEPT,
                "INSERT INTO " + STATUS + " (event_id, status, updated_at, attempts) SELECT event_id, status, "
                        + "updated_at, attempts FROM " + STATUS_KEPT,
                "DROP TABLE " + EVENTS_KEPT, "DROP TABLE " + STATUS_KEPT);
    }

    /**
     * One statement adds a batch and its PENDING status rows: the time emitted, then the arrays of ids and document
     * numbers, joined to the {@link EventCatalogue}; each payload is the event's id and time, then the document
     * ({@link RailEvents#payload}); where the application fills the flat columns, they come from the catalogue.
     * One instance in the JVM ({@link String#intern}), as {@link #processSql()}: pgjdbc's statement cache finds a key
     * by identity first, so a priming apart and the measured run after it ask with the same instance; with two, the
     * cache's compiled code, inlined into the operations, met a path it never saw and was compiled again in the
     * measured minute.
     */
    public String addSql() {
        String cast = payloadType.equals("jsonb") ? "::jsonb" : "";
        String payload = "('{\"eventId\":\"' || u.i || '\",\"emittedAt\":' || ?::bigint || ',' || d.body)" + cast;
        String insert = "INSERT INTO " + EVENTS + " (id, payload" + (fillsFlatColumns()
                ? ", event_type, authority_id, train_id) SELECT u.i, " + payload + ", d.event_type, d.authority_id, d.train_id"
                : ") SELECT u.i, " + payload)
                + " FROM unnest(?::uuid[], ?::int[]) AS u(i, n) JOIN " + DOCUMENTS + " d ON d.n = u.n";
        return ("WITH added AS (" + insert + " RETURNING id) INSERT INTO " + STATUS
                + " (event_id, status) SELECT id, 'PENDING' FROM added").intern();
    }

    /** Claims the oldest events still to process, skipping those another client holds: their ids and states. */
    static String claimSql() {
        return "SELECT event_id, status FROM " + STATUS + " WHERE status IN ('PENDING', 'PROCESSING') "
                + "ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED";
    }

    /**
     * The whole of processing in one statement: claims up to {@code ?} events as {@link #claimSql()} does, draws each
     * one's next state (PENDING to PROCESSING; PROCESSING to FAILED with probability {@code ?}, else COMPLETE), edits
     * their payloads and advances their status rows ({@link #stepSql}), binding the limit, the failed share and the
     * processing time. It returns each event it advanced, its new state, and how many payloads it edited. One
     * instance in the JVM, as {@link #addSql()}.
     */
    String processSql() {
        return ("WITH claimed AS (" + claimSql() + "), "
                + "u AS (SELECT event_id AS i, CASE WHEN status = 'PENDING' THEN 'PROCESSING' "
                + "WHEN random() < ? THEN 'FAILED' ELSE 'COMPLETE' END AS s FROM claimed), " + stepSql()).intern();
    }

    /**
     * Processing's second half for events claimed already (with {@code --lock-hold}, which pauses between the two):
     * binds the claimed ids and their next states, then the processing time; returns as {@link #processSql()} does.
     */
    String claimedStepSql() {
        return "WITH u AS (SELECT * FROM unnest(?::uuid[], ?::text[]) AS u(i, s)), " + stepSql();
    }

    /**
     * The business rule's edit of the payloads of the events in {@code u} (id {@code i}, next state {@code s}) and
     * the state machine's step, binding the processing time. JSONB: a JSON edit; TEXT: a string edit of the lifecycle
     * and processedAt fields (they sit together near the top of every document).
     */
    private String stepSql() {
        String edit = payloadType.equals("jsonb")
                ? "e.payload || jsonb_build_object('lifecycle', u.s, 'processedAt', ?::bigint)"
                : "regexp_replace(e.payload, '\"lifecycle\":\"[A-Z]+\",\"processedAt\":[0-9a-z]+', "
                        + "'\"lifecycle\":\"' || u.s || '\",\"processedAt\":' || ?::bigint)";
        return "edited AS (UPDATE " + EVENTS + " e SET payload = " + edit + " FROM u WHERE e.id = u.i RETURNING 1), "
                + "advanced AS (UPDATE " + STATUS + " s SET status = u.s, updated_at = now(), attempts = s.attempts + 1 "
                + "FROM u WHERE s.event_id = u.i RETURNING s.event_id, s.status) "
                + "SELECT event_id, status, (SELECT count(*) FROM edited) FROM advanced";
    }

    /**
     * Moves up to {@code ?} terminal events to the archive and deletes them (their status rows by cascade), returning
     * the ids moved.
     */
    static String archiveSql() {
        return "WITH done AS (SELECT event_id, status FROM " + STATUS + " WHERE status IN ('COMPLETE', 'FAILED') "
                + "ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED), "
                + "moved AS (DELETE FROM " + EVENTS + " e USING done WHERE e.id = done.event_id "
                + "RETURNING e.id, e.created_at, e.event_type, e.authority_id, e.train_id, e.payload, done.status) "
                + "INSERT INTO " + ARCHIVE + " (id, created_at, event_type, authority_id, train_id, payload, final_status) "
                + "SELECT id, created_at, event_type, authority_id, train_id, payload, status FROM moved RETURNING id";
    }

    /** The variant whose tables are in the database, read from the events table's columns; empty when none. */
    public static Optional<Variant> installed(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT (SELECT data_type FROM information_schema.columns WHERE table_name = '" + EVENTS
                        + "' AND column_name = 'payload' AND table_schema = current_schema()), "
                        + "(SELECT is_generated FROM information_schema.columns WHERE table_name = '" + EVENTS
                        + "' AND column_name = 'event_type' AND table_schema = current_schema())")) {
            rs.next();
            String type = rs.getString(1);
            if (type == null) {
                return Optional.empty();
            }
            if (type.equalsIgnoreCase("text")) {
                return Optional.of(TEXT);
            }
            return Optional.of("ALWAYS".equalsIgnoreCase(rs.getString(2)) ? JSONB : JSONB_MANUAL);
        }
    }

    @Override
    public String toString() {
        return label;
    }
}

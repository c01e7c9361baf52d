package dev.gauntlet.sql;

import dev.gauntlet.core.history.ResultStore;
import dev.gauntlet.core.history.ResultStoreException;
import dev.gauntlet.core.history.SeriesKey;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs kept in a PostgreSQL table, {@value #TABLE}, so a team shares one history: {@code run --store
 * jdbc:postgresql://db/bench?user=ci&password=...} adds every run, {@code report history --store URL} reads them
 * back. The user and password are the URL's {@code user} and {@code password} parameters, else {@code $PGUSER}
 * and {@code $PGPASSWORD}, as for {@code --url}.
 *
 * <p>The table is made on first use, in the first schema of the user's search path; after that a user needs only
 * to select, insert and update it. One row per run, meant to be queried as well as read back:
 * {@code run_id}, {@code workload}, {@code variant}, {@code series} (the run's {@link SeriesKey} on one line, so
 * like runs share a value), {@code started_at}, {@code labels} (jsonb, {@code --label release=25.2} as
 * {@code {"release": "25.2"}}), {@code command}, {@code tool_version}, {@code result} (the whole
 * {@code result.json} as jsonb) and {@code stored_at}. A run stored again replaces its row.
 *
 * <p>One connection, opened with the store and closed with it (opened again if it was lost while the store was
 * idle, say during a long run); not for use by several threads at once.
 */
public final class PostgresResultStore implements ResultStore {

    /** The table runs are kept in. */
    public static final String TABLE = "gauntlet_results";

    private static final String CREATE_TABLE = """
            CREATE TABLE IF NOT EXISTS gauntlet_results (
                run_id text PRIMARY KEY,
                workload text NOT NULL,
                variant text,
                series text NOT NULL,
                started_at timestamptz,
                labels jsonb NOT NULL DEFAULT '{}',
                command text,
                tool_version text,
                result jsonb NOT NULL,
                stored_at timestamptz NOT NULL DEFAULT now())""";
    private static final String CREATE_INDEX =
            "CREATE INDEX IF NOT EXISTS gauntlet_results_workload_started ON gauntlet_results (workload, started_at)";
    /** Serialises the table's creation: two processes creating it at once race on its row type's name. */
    private static final String CREATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('gauntlet_results'))";

    /** The labels come from the stored document, so the two cannot disagree. */
    private static final String SAVE = """
            INSERT INTO gauntlet_results
                (run_id, workload, variant, series, started_at, command, tool_version, labels, result)
            SELECT ?, ?, ?, ?, ?, ?, ?, coalesce(given.result -> 'labels', '{}'), given.result
            FROM (SELECT ?::jsonb AS result) AS given
            ON CONFLICT (run_id) DO UPDATE SET workload = excluded.workload, variant = excluded.variant,
                series = excluded.series, started_at = excluded.started_at, command = excluded.command,
                tool_version = excluded.tool_version, labels = excluded.labels, result = excluded.result,
                stored_at = now()""";
    private static final String RUNS =
            "SELECT run_id, result::text FROM gauntlet_results ORDER BY started_at, run_id";

    /** How long a check that the kept connection still works may take. */
    private static final int VALIDATION_SECONDS = 10;

    private final ConnectionSettings settings;
    private Connection connection;

    private PostgresResultStore(ConnectionSettings settings) {
        this.settings = settings;
    }

    /**
     * Connects to the store at {@code url} ({@code jdbc:postgresql:...}) and makes its table if absent.
     *
     * @throws ResultStoreException when it cannot, in one line: the redacted URL, the SQL state and the server's
     *                              message
     */
    public static PostgresResultStore open(String url) {
        PostgresResultStore store = new PostgresResultStore(ConnectionSettings.withDefaults(url, null, null));
        try {
            createTableIfAbsent(store.connection());
            return store;
        } catch (SQLException e) {
            store.close();
            throw store.failure("cannot keep results in", e);
        }
    }

    /**
     * Creates the table unless it is there: a user who may not create tables can still use one made for them, and
     * concurrent creators wait for each other.
     */
    private static void createTableIfAbsent(Connection c) throws SQLException {
        if (Catalog.hasTable(c, TABLE)) {
            return;
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute(CREATION_LOCK);
            s.execute(CREATE_TABLE);
            s.execute(CREATE_INDEX);
            c.commit();
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException lost) {
                e.addSuppressed(lost);
            }
            throw e; // the store closes the connection
        }
        c.setAutoCommit(true);
    }

    /**
     * Keeps {@code result}, replacing an earlier copy of the same run.
     *
     * @throws ResultStoreException for a result without a run id (schemaVersion 1) or workload, or when the
     *                              database refuses
     */
    @Override
    public void save(RunResult result) {
        if (result.runId() == null || result.workload() == null) {
            throw new ResultStoreException("cannot keep a result without a " + (result.runId() == null
                    ? "run id (schemaVersion " + result.schemaVersion() + ")" : "workload") + " in " + describe());
        }
        try (PreparedStatement p = connection().prepareStatement(SAVE)) {
            p.setString(1, result.runId());
            p.setString(2, result.workload());
            p.setString(3, result.variant());
            p.setString(4, SeriesKey.of(result, Set.of()).describe());
            p.setObject(5, startedAt(result));
            p.setString(6, result.command());
            p.setString(7, result.tool() == null ? null : result.tool().version());
            p.setString(8, ResultFile.toJson(result));
            p.executeUpdate();
        } catch (SQLException e) {
            throw failure("cannot save run " + result.runId() + " in", e);
        }
    }

    /** When the run started, or null when its result does not say in ISO 8601 with an offset. */
    private static OffsetDateTime startedAt(RunResult result) {
        if (result.startedAt() == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(result.startedAt());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Every run kept, by start time (runs that do not say when they started last), then run id.
     *
     * @throws ResultStoreException when the table cannot be read, or holds a result this program cannot read (a
     *                              newer schema version), naming its run
     */
    @Override
    public List<RunResult> runs() {
        List<RunResult> runs = new ArrayList<>();
        try (Statement s = connection().createStatement(); ResultSet rs = s.executeQuery(RUNS)) {
            while (rs.next()) {
                runs.add(ResultFile.fromJson(rs.getString(2), TABLE + " run " + rs.getString(1)));
            }
        } catch (SQLException e) {
            throw failure("cannot read results from", e);
        } catch (ResultFormatException e) {
            throw new ResultStoreException("cannot read results from " + describe() + ": " + e.getMessage(), e);
        }
        return runs;
    }

    /** The store's URL with any password masked. */
    @Override
    public String describe() {
        return Redaction.url(settings.url());
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Nothing is pending: every save commits on its own.
            }
            connection = null;
        }
    }

    @Override
    public String toString() {
        return "PostgresResultStore[" + describe() + "]";
    }

    /** The kept connection, or a new one when there is none or it no longer works. */
    private Connection connection() throws SQLException {
        if (connection != null && !connection.isValid(VALIDATION_SECONDS)) {
            close();
        }
        if (connection == null) {
            connection = settings.connectForAdmin();
        }
        return connection;
    }

    /** One line: what failed, where (redacted), the SQL state and the first line of the driver's message. */
    private ResultStoreException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState() + " ";
        return new ResultStoreException(doing + " " + describe() + ": " + state + Redaction.url(SqlStates.message(e)),
                e);
    }

    /** Takes {@code jdbc:postgresql:} URLs; registered in {@code META-INF/services}. */
    public static final class Provider implements ResultStore.Provider {

        private static final String SCHEME = "jdbc:postgresql:";

        @Override
        public boolean accepts(String url) {
            return url != null && url.startsWith(SCHEME);
        }

        @Override
        public String example() {
            return SCHEME + "//HOST[:PORT]/DB?user=U&password=P";
        }

        @Override
        public ResultStore open(String url) {
            return PostgresResultStore.open(url);
        }
    }
}

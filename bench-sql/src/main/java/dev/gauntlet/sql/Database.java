package dev.gauntlet.sql;

import dev.gauntlet.core.result.Redaction;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A database a run talks to: its connection settings, what it is (product and version), and, when Gauntlet
 * started it, the embedded server(s) that {@link #close()} stops. The workload's sessions may take another way to it
 * ({@link #sessions()}: through Toxiproxy in a run through network faults) than everything else: loading,
 * administration, probes and checks connect straight ({@link #settings()}), so a fault on the workload's path leaves
 * them alone.
 */
public final class Database implements AutoCloseable {

    private final ConnectionSettings settings;
    private final ConnectionSettings sessions;
    private final String product;
    private final String version;
    private final AutoCloseable embedded;

    private Database(ConnectionSettings settings, ConnectionSettings sessions, String product, String version,
                     AutoCloseable embedded) {
        this.settings = settings;
        this.sessions = sessions;
        this.product = product;
        this.version = version;
        this.embedded = embedded;
    }

    /**
     * Connects once to learn what the server is, so a wrong URL, password or database name is reported
     * before anything else happens.
     */
    public static Database probe(ConnectionSettings settings, AutoCloseable embedded) {
        try (Connection c = settings.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            String product = meta.getDatabaseProductName();
            String version;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select version()")) {
                rs.next();
                version = rs.getString(1);
            }
            return new Database(settings, settings, product, version, embedded);
        } catch (SQLException e) {
            throw new DatabaseUnavailableException(explain(settings, e), e);
        }
    }

    static String explain(ConnectionSettings settings, SQLException e) {
        String url = Redaction.url(settings.url());
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String why = SqlStates.message(e);
        if (state.equals(SqlStates.INVALID_PASSWORD) || state.equals(SqlStates.INVALID_AUTHORIZATION)) {
            return "authentication failed for user '" + settings.user() + "' at " + url
                    + ": check --user and --password (or PGPASSWORD)";
        }
        if (state.equals(SqlStates.UNDEFINED_DATABASE)) {
            return "the database in " + url + " does not exist: create it or fix --url (" + why + ")";
        }
        if (why.startsWith("No suitable driver")) {
            return "'" + url + "' is not a JDBC URL this tool understands; expected jdbc:postgresql://HOST:PORT/DATABASE";
        }
        if (state.startsWith("08")) {
            return "cannot reach the database at " + url + ": " + why;
        }
        return "cannot use the database at " + url + ": " + why + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
    }

    /**
     * This database with the workload's sessions connecting through {@code sessions} (a proxy in front of it),
     * which is tried once so a path that does not work is reported before anything else happens.
     */
    public Database withSessionsThrough(ConnectionSettings sessions) {
        try (Connection c = sessions.connect()) {
            c.isValid(0);
        } catch (SQLException e) {
            throw new DatabaseUnavailableException(explain(sessions, e), e);
        }
        return new Database(settings, sessions, product, version, embedded);
    }

    /** Where loading, administration, probes and checks connect: straight to the server. */
    public ConnectionSettings settings() {
        return settings;
    }

    /** Where the workload's sessions connect: {@link #settings()}, or the path a run through faults puts them on. */
    public ConnectionSettings sessions() {
        return sessions;
    }

    public String product() {
        return product;
    }

    /** The server's own description, e.g. "PostgreSQL 18.1 on x86_64-pc-linux-gnu, ...". */
    public String version() {
        return version;
    }

    public boolean isCockroach() {
        return version != null && version.contains("CockroachDB");
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    /**
     * Keeps the logs of the servers Gauntlet started for this database in {@code dir} when they stop (a lab's, at
     * {@link #close}), and says so in a sentence for the run's notes; empty where none would be lost.
     */
    public java.util.Optional<String> keepLogsIn(java.nio.file.Path dir) {
        return embedded instanceof ServerLogs logs ? java.util.Optional.of(logs.keepLogsIn(dir))
                : java.util.Optional.empty();
    }


    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("could not stop " + embedded + ": " + e.getMessage(), e);
            }
        }
    }
}

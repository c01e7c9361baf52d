package dev.gauntlet.sql;

import dev.gauntlet.core.experiment.ServerState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a server into an experiment's state and proves it got there: runs SQL with auto-commit on an admin
 * connection (ALTER SYSTEM cannot run in a transaction block), then reads every requested setting back on a new
 * session. A setting that did not take effect (the server was started with {@code -c name=value}, which outranks
 * ALTER SYSTEM, or the setting needs a restart) refuses the state: otherwise two "different" variants would measure
 * the same server.
 */
public final class ServerSettings implements ServerState {

    /** How long to wait for {@code pg_reload_conf()} to be picked up: it only signals the postmaster. */
    private static final int READ_BACK_ATTEMPTS = 20;
    private static final long READ_BACK_PAUSE_MS = 100;

    private final Database db;

    public ServerSettings(Database db) {
        this.db = db;
    }

    /** Runs the statements with auto-commit, in order; a failure is said as "its SQL failed: ..." with its SQLSTATE. */
    @Override
    public void apply(List<String> statements) throws Refused {
        if (statements.isEmpty()) {
            return;
        }
        try (Connection c = db.settings().connectForAdmin(); Statement st = c.createStatement()) {
            c.setAutoCommit(true);
            for (String sql : statements) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw refused(e);
        }
    }

    /**
     * Reads each wanted setting back until it shows the wanted value (case-insensitive); returns the values in
     * effect, or refuses naming the first setting that is not.
     */
    @Override
    public Map<String, String> inEffect(Map<String, String> wanted) throws Refused {
        Map<String, String> inEffect = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, String> w : wanted.entrySet()) {
                String actual = current(w.getKey());
                for (int attempt = 1; attempt < READ_BACK_ATTEMPTS && !actual.equalsIgnoreCase(w.getValue());
                        attempt++) {
                    try {
                        Thread.sleep(READ_BACK_PAUSE_MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                    actual = current(w.getKey());
                }
                if (!actual.equalsIgnoreCase(w.getValue())) {
                    throw new Refused("its SQL ran but " + w.getKey() + " is still '" + actual + "', not '"
                            + w.getValue() + "' (set on the server's command line, or needs a restart?)", null);
                }
                inEffect.put(w.getKey(), actual);
            }
        } catch (SQLException e) {
            throw refused(e);
        }
        return inEffect;
    }

    private static Refused refused(SQLException e) {
        return new Refused("its SQL failed: " + SqlStates.message(e), e);
    }

    /** The setting's value as a new session sees it. */
    private String current(String name) throws SQLException {
        String sql = db.isCockroach() ? "SHOW CLUSTER SETTING " + name : "SELECT current_setting(?)";
        if (db.isCockroach() && !name.matches("[A-Za-z0-9_.]+")) {
            throw new IllegalArgumentException("not a setting name: " + name);
        }
        try (Connection c = db.settings().connectForAdmin(); PreparedStatement st = c.prepareStatement(sql)) {
            if (!db.isCockroach()) {
                st.setString(1, name);
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}

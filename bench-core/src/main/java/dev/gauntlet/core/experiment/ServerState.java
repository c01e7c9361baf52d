package dev.gauntlet.core.experiment;

import java.util.List;
import java.util.Map;

/**
 * What an experiment changes between its cells: the server's settings. The engine runs a cell's statements and asks
 * which of the settings it wanted are in effect; how (SQL on an admin connection, reading each setting back on a new
 * session) is the SQL module's ({@code dev.gauntlet.sql.ServerSettings}).
 */
public interface ServerState {

    /** Runs the statements, in order; {@link Refused} says in one line why one failed. */
    void apply(List<String> statements) throws Refused;

    /**
     * The wanted settings as now in effect; {@link Refused} names the first that did not take effect (otherwise two
     * "different" cells would measure the same server).
     */
    Map<String, String> inEffect(Map<String, String> wanted) throws Refused;

    /** The server refused or did not take a state: the message is the one line a reader is shown. */
    final class Refused extends Exception {

        private static final long serialVersionUID = 1L;

        public Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

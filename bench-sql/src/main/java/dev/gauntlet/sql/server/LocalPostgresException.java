package dev.gauntlet.sql.server;

/**
 * The local PostgreSQL server could not be prepared, started, restarted or stopped. The message is one line
 * that names the step that failed and ends with the tail of the tool output and server log, so a command line
 * can print it as it is.
 */
public class LocalPostgresException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LocalPostgresException(String message) {
        super(message);
    }

    public LocalPostgresException(String message, Throwable cause) {
        super(message, cause);
    }
}

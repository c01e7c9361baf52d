package dev.gauntlet.core.db;

/** The database cannot be used at all (unreachable, wrong password, no such database): one line says why. */
public final class DatabaseUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

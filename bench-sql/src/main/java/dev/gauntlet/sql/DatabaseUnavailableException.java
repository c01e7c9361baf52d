package dev.gauntlet.sql;

import dev.gauntlet.core.cli.RunFailedException;

/** The database cannot be used at all (unreachable, wrong password, no such database): one line says why. */
public final class DatabaseUnavailableException extends RunFailedException {

    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

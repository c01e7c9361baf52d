package dev.gauntlet.core.history;

/** A result store refused or could not be reached; the message is one line, without secrets. */
public final class ResultStoreException extends RuntimeException {

    public ResultStoreException(String message) {
        super(message);
    }

    public ResultStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

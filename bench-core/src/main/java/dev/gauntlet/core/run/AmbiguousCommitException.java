package dev.gauntlet.core.run;

/** The connection broke while COMMIT was in flight: the transaction may or may not have committed. */
public final class AmbiguousCommitException extends Exception {

    private static final long serialVersionUID = 1L;

    public AmbiguousCommitException(Throwable cause) {
        super("connection lost during commit: outcome unknown (" + cause.getMessage() + ")", cause);
    }
}

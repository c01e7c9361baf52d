package dev.gauntlet.core.cli;

/** The run (or a check) failed: printed as one line, exit {@link ExitCode#FAILED}. */
public class RunFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RunFailedException(String message) {
        super(message);
    }

    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.gauntlet.core.cli;

/**
 * Bad usage or bad input: the message is one line that names the problem and, where it can, the fix.
 * The command line prints it without a stack trace and exits with {@link ExitCode#BAD_INPUT}.
 */
public class BadInputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}

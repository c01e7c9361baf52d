package dev.gauntlet.core.cli;

/** The exit codes every Gauntlet command uses. */
public final class ExitCode {

    /** The command did what was asked. */
    public static final int OK = 0;
    /** The run or a check failed. */
    public static final int FAILED = 1;
    /** Bad usage or bad input: nothing ran, nothing was written. */
    public static final int BAD_INPUT = 2;
    /**
     * Gauntlet, or a library it uses, failed in a way it did not foresee (an {@code Error} or an unexpected
     * exception): a bug to report, with the stack trace {@code --verbose} prints.
     */
    public static final int INTERNAL = 3;

    private ExitCode() {
    }
}

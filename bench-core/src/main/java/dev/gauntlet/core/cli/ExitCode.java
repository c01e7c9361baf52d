package dev.gauntlet.core.cli;

/** The three exit codes every Gauntlet command uses. */
public final class ExitCode {

    /** The command did what was asked. */
    public static final int OK = 0;
    /** The run or a check failed. */
    public static final int FAILED = 1;
    /** Bad usage or bad input: nothing ran, nothing was written. */
    public static final int BAD_INPUT = 2;

    private ExitCode() {
    }
}

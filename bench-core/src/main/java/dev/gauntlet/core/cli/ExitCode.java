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
    /**
     * The run went through and its checks passed, but it missed an objective it was given ({@code --slo}): what a CI
     * job gates on. A failed check is {@link #FAILED} whatever the objectives say.
     */
    public static final int OBJECTIVE_MISSED = 4;

    /**
     * A run's exit code: {@link #FAILED} when a check failed, else {@link #OBJECTIVE_MISSED} when it missed an
     * objective, unless it is one driver's part of a run ({@code --worker}): its percentiles are not the run's, and
     * {@code report merge} judges the whole.
     */
    public static int of(dev.gauntlet.core.result.RunResult r) {
        if (r.checkStatus() == dev.gauntlet.core.result.Check.Status.FAIL) {
            return FAILED;
        }
        return r.missedAnObjective() && dev.gauntlet.core.result.WorkerShare.of(r).whole() ? OBJECTIVE_MISSED : OK;
    }

    private ExitCode() {
    }
}

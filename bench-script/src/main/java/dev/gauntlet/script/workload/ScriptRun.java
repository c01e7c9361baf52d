package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.QueryMode;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What every transaction of a run shares: the query mode, whether commands are timed ({@code -r}) and transactions
 * throttled ({@code -R}), where {@code debug()} prints, the history ledger (null when no run keeps one), and the count
 * of failed tries at each command of each script.
 */
public final class ScriptRun {

    private final QueryMode mode;
    private final boolean perCommand;
    private final boolean throttled;
    private final boolean verboseErrors;
    private final PrintStream debug;
    private volatile HistoryLedger ledger;
    private final AtomicLongArray[] failures;

    /**
     * @param verboseErrors every failed try's error printed (pgbench's {@code --verbose-errors}); otherwise the run's
     *                      errors table shows one example of each kind
     * @param debug         where {@code debug()} and those errors are printed (standard error, as pgbench's)
     */
    public ScriptRun(QueryMode mode, boolean perCommand, boolean throttled, boolean verboseErrors, PrintStream debug,
                     List<CompiledScript> scripts) {
        this.verboseErrors = verboseErrors;
        this.mode = mode;
        this.perCommand = perCommand;
        this.throttled = throttled;
        this.debug = debug;
        this.failures = new AtomicLongArray[scripts.size()];
        for (CompiledScript s : scripts) {
            failures[s.index()] = new AtomicLongArray(Math.max(1, s.commands().size()));
        }
    }

    QueryMode mode() {
        return mode;
    }

    boolean perCommand() {
        return perCommand;
    }

    /** Whether transactions follow a schedule ({@code -R}/{@code --rate}). */
    public boolean throttled() {
        return throttled;
    }

    PrintStream debug() {
        return debug;
    }

    HistoryLedger ledger() {
        return ledger;
    }

    /** The ledger the next transactions write to (a new one for each run of an experiment). */
    public void ledger(HistoryLedger next) {
        ledger = next;
    }

    void failed(CompiledScript script, int command, int clientId, Exception error) {
        failures[script.index()].incrementAndGet(Math.max(0, command));
        if (verboseErrors) {
            debug.println("client " + clientId + " script " + script.index() + " command " + Math.max(0, command)
                    + " (" + script.commands().get(Math.max(0, command)).lines().findFirst().orElse("") + "): "
                    + error.getMessage());
        }
    }

    /** Failed tries at each command of the script, since the run began (priming included). */
    public long[] failures(CompiledScript script) {
        AtomicLongArray a = failures[script.index()];
        long[] out = new long[a.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i);
        }
        return out;
    }
}

package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.QueryMode;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What every transaction of a run shares: the query mode, whether commands are timed ({@code -r}) and transactions
 * throttled ({@code -R}), what it says on standard error and where, the history ledger (null when no run keeps one),
 * and the count of failed tries at each command of each script.
 */
public final class ScriptRun {

    /**
     * What a run says beside its figures, as pgbench says it.
     *
     * @param err           where (standard error, as pgbench's): {@code debug()}, errors, debug lines
     * @param verboseErrors every failed try's error printed (pgbench's {@code --verbose-errors}); otherwise the run's
     *                      errors table shows one example of each kind
     * @param debug         pgbench's {@code -d}: each transaction's script, each SQL command sent and its result read
     * @param aborts        a client's end on an error it cannot go on from in pgbench's lines ({@code client 0 script
     *                      0 aborted in command 1 query 0: ERROR:  ...}), where the run's own line does not say it
     */
    public record Diagnostics(PrintStream err, boolean verboseErrors, boolean debug, boolean aborts) {
    }

    private final QueryMode mode;
    private final boolean perCommand;
    private final boolean throttled;
    private final Diagnostics says;
    private final PrintStream debug;
    private final AtomicInteger aborted = new AtomicInteger();
    private volatile HistoryLedger ledger;
    private final AtomicLongArray[] failures;

    public ScriptRun(QueryMode mode, boolean perCommand, boolean throttled, Diagnostics says,
                     List<CompiledScript> scripts) {
        this.says = says;
        this.mode = mode;
        this.perCommand = perCommand;
        this.throttled = throttled;
        this.debug = says.err();
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

    /** pgbench's {@code -d} line, when asked for. */
    void debugLine(String text) {
        if (says.debug()) {
            debug.println("pgbench: debug: " + text);
        }
    }

    boolean debugging() {
        return says.debug();
    }

    /**
     * A try that failed at {@code command} of {@code script} ({@code in}, the instruction it failed in): counted, and
     * said as pgbench says it: a retryable error with {@code --verbose-errors}, a client's end when asked for.
     */
    void failed(CompiledScript script, int command, Instruction in, int clientId, Exception error) {
        failures[script.index()].incrementAndGet(Math.max(0, command));
        if (PgbenchAbort.retryable(error)) {
            if (says.verboseErrors()) {
                debug.println("pgbench: client " + clientId + " got an error in command " + Math.max(0, command)
                        + " (SQL) of script " + script.index() + "; " + PgbenchAbort.libpq((SQLException) error));
            }
        } else if (says.aborts() && PgbenchAbort.ends(error)) {
            aborted.incrementAndGet();
            PgbenchAbort.lines(clientId, script.index(), Math.max(0, command), in, error)
                    .forEach(m -> debug.println("pgbench: error: " + m));
        }
    }

    /** Clients whose end on an error was said in pgbench's lines. */
    public int aborted() {
        return aborted.get();
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

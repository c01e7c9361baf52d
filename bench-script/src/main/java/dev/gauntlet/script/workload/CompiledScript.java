package dev.gauntlet.script.workload;

import java.util.List;

/**
 * A script ready to run: its instructions, and what the run and its summary say of it.
 *
 * @param index          its place among the run's scripts (pgbench's "script N", 0-based)
 * @param operation      the operation its transactions are recorded under (the built-in's name or the file's)
 * @param title          pgbench's title for it ({@code <builtin: TPC-B (sort of)>} or the file name)
 * @param weight         its weight in the choice of scripts
 * @param code           its instructions
 * @param commands       each command as {@code -r} shows it
 * @param writesHistory  a built-in that inserts its values into pgbench_history (tpcb-like, simple-update): its
 *                       commits go to the history ledger
 */
public record CompiledScript(int index, String operation, String title, int weight, Instruction[] code,
                             List<String> commands, boolean writesHistory) {

    /** Whether a bare BEGIN of this script goes with the statement after it (one round trip fewer than pgbench). */
    public boolean joinsBegin() {
        for (Instruction i : code) {
            if (i instanceof SqlInstruction s && s.boundary() == SqlInstruction.Boundary.BEGIN) {
                return true;
            }
        }
        return false;
    }

    /** The observation a command's latencies are recorded under with {@code -r}. */
    public String commandObservation(int command) {
        return operation + " #" + (command + 1);
    }
}

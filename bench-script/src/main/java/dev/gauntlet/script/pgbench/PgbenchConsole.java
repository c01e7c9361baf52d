package dev.gauntlet.script.pgbench;

import dev.gauntlet.script.workload.PgbenchTransactionLog;
import java.io.PrintStream;

/**
 * Where {@code run} prints pgbench's own lines: its summary ({@code out}) and its messages, the vacuum's and a
 * client's errors ({@code err}). For {@code bench-script run} the process's streams, the vacuum on standard output
 * beside Gauntlet's lines; for {@code bench-script pgbench} ({@code dropIn}) the streams pgbench would use, the vacuum
 * on standard error as pgbench 15 prints it, a client's end on an error in pgbench's lines, Gauntlet's own lines kept
 * apart by the caller; {@code debug} is pgbench's {@code -d}, {@code log} its {@code -l} (null: none), {@code progressTimestamp} its
 * {@code --progress-timestamp}.
 */
public record PgbenchConsole(PrintStream out, PrintStream err, boolean dropIn, boolean debug,
                             PgbenchTransactionLog.Settings log, boolean progressTimestamp) {

    /** {@code bench-script run}'s. */
    public static PgbenchConsole standard() {
        return new PgbenchConsole(System.out, System.err, false, false, null, false);
    }

    /** Where the vacuum's lines go. */
    public PrintStream vacuum() {
        return dropIn ? err : out;
    }
}

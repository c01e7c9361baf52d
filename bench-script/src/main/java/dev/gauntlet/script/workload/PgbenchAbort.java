package dev.gauntlet.script.workload;

import dev.gauntlet.core.run.Failure;
import dev.gauntlet.sql.SqlStates;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * How pgbench 15 words an error in a script's transaction: a serialization failure or deadlock is a retryable error
 * ({@code client 0 got an error in command 3 (SQL) of script 0; ERROR:  ...}); anything else ends the client, in the
 * words of the command it failed in (an SQL command: {@code client 0 script 0 aborted in command 1 query 0: ERROR:
 * ...}; a meta-command: what went wrong, then {@code client 0 aborted in command 1 (set) of script 0; evaluation of
 * meta-command failed}). Server errors are written as libpq writes them.
 */
public final class PgbenchAbort {

    private PgbenchAbort() {
    }

    /** pgbench's {@code canRetryError}: a serialization failure or a deadlock. */
    static boolean retryable(Exception error) {
        return error instanceof SQLException s && (SqlStates.SERIALIZATION_FAILURE.equals(s.getSQLState())
                || SqlStates.DEADLOCK.equals(s.getSQLState()));
    }

    /** Whether the run cannot go on from {@code error} (a lost session is the run's to reconnect, not an end). */
    static boolean ends(Exception error) {
        return SqlStates.classify(error).kind() == Failure.Kind.FATAL;
    }

    /**
     * The messages pgbench logs as errors for a client ending on {@code error} in {@code command}, without their
     * prefix; a message of several lines (a server error's DETAIL, CONTEXT) takes the prefix on its first only.
     */
    static List<String> lines(int client, int script, int command, Instruction in, Exception error) {
        String message = error instanceof SQLException s ? libpq(s) : error.getMessage();
        if (in instanceof SqlInstruction) {
            return error instanceof SQLException
                    ? List.of("client " + client + " script " + script + " aborted in command " + command
                    + " query 0: " + message)
                    : List.of(message.split("\n")); // \gset's error storing: the name refused, then where
        }
        String name;
        String failed;
        if (in instanceof Meta.Set) {
            name = "set";
            failed = message.startsWith("set: invalid variable name") ? "assignment of meta-command failed"
                    : "evaluation of meta-command failed";
        } else if (in instanceof Meta.Branch || in instanceof Meta.Elif) {
            name = in instanceof Meta.Branch ? "if" : "elif";
            failed = "evaluation of meta-command failed";
        } else if (in instanceof Meta.Sleep) {
            name = "sleep";
            failed = "execution of meta-command failed";
        } else if (in instanceof Meta.Shell shell) {
            name = shell.into() == null ? "shell" : "setshell";
            failed = "execution of meta-command failed";
        } else if (in instanceof Meta.StartPipeline || in instanceof Meta.EndPipeline) {
            return List.of("client " + client + " aborted in command " + command + " ("
                    + (in instanceof Meta.StartPipeline ? "startpipeline" : "endpipeline") + ") of script " + script
                    + "; " + message);
        } else {
            // The end of the script (inside a transaction block or a pipeline): pgbench's own line.
            return List.of("client " + client + " aborted: " + message);
        }
        List<String> lines = new ArrayList<>();
        if (!message.isEmpty()) {
            lines.add(message);
        }
        lines.add("client " + client + " aborted in command " + command + " (" + name + ") of script " + script + "; "
                + failed);
        return lines;
    }

    /** An error as libpq writes it: {@code SEVERITY:  message}, then its DETAIL, HINT and CONTEXT lines. */
    public static String libpq(SQLException e) {
        ServerErrorMessage m = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
        if (m == null) {
            Throwable cause = e.getCause();
            return e.getMessage() + (cause != null && cause.getMessage() != null ? ": " + cause.getMessage() : "");
        }
        StringBuilder b = new StringBuilder(m.getSeverity()).append(":  ").append(m.getMessage());
        if (m.getDetail() != null) {
            b.append("\nDETAIL:  ").append(m.getDetail());
        }
        if (m.getHint() != null) {
            b.append("\nHINT:  ").append(m.getHint());
        }
        if (m.getWhere() != null) {
            b.append("\nCONTEXT:  ").append(m.getWhere());
        }
        return b.toString();
    }
}

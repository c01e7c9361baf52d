package dev.gauntlet.script.lang;

/**
 * An error while a script runs, in pgbench's words: the message is what pgbench 15 logs after {@code pgbench: error: }
 * when the evaluation of an expression fails ({@code division by zero}, {@code bigint add out of range},
 * {@code undefined variable "x"}...), before it aborts the client with
 * {@code client N aborted in command N (set) of script N; evaluation of meta-command failed}.
 *
 * <p>The message may be empty: pgbench logs nothing of its own when a variable holds the empty string (which
 * {@code \gset} can store) and an expression reads it; it only aborts the client.
 */
public class ScriptException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * An error with pgbench's message.
     *
     * @param message the text pgbench logs, never null (may be empty)
     */
    public ScriptException(String message) {
        super(message == null ? "" : message);
    }
}

package dev.gauntlet.script.lang;

import java.util.List;

/**
 * A script (or the choice of scripts) that pgbench 15 refuses before it connects: an unknown or malformed
 * meta-command, a misplaced {@code \gset}, unbalanced conditionals, an empty script, a bad weight, an unknown or
 * ambiguous built-in name.
 *
 * <p>The message is exactly what pgbench writes on standard error, without the {@code "pgbench: error: "} prefix of
 * its first line and without the final newline. Some of pgbench's messages have more lines, which the message keeps,
 * joined with {@code '\n'}: a meta-command's syntax error shows the command's text and a caret line
 * ({@code "      ^ error found here"}); an unknown built-in name is followed by the list of built-ins.
 * {@link #pgbenchStderr()} gives the whole text as pgbench prints it.
 */
public final class ScriptFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> lines;

    private ScriptFileException(List<String> lines) {
        super(String.join("\n", lines));
        this.lines = List.copyOf(lines);
    }

    /** A refusal whose message is these lines (the first without pgbench's prefix). */
    public static ScriptFileException of(String... lines) {
        return new ScriptFileException(List.of(lines));
    }

    /** A refusal whose message is these lines (the first without pgbench's prefix). */
    public static ScriptFileException of(List<String> lines) {
        return new ScriptFileException(lines);
    }

    /**
     * pgbench's {@code syntax_error()}: {@code "SOURCE:LINE: MESSAGE"}, then {@code " (MORE)"} when there is more,
     * {@code " at column N"} when a column but no command text is known, {@code " in command \"NAME\""} when the
     * command's name is known; then, when the command's text is known, that text on its own line and, when the
     * column is known too, a caret under it.
     *
     * @param source the script's name (its file name, or a built-in's description)
     * @param line the 1-based line of the command's backslash
     * @param commandText the command's text from its backslash to its end, or null
     * @param command the command's name as written ({@code "set"}, {@code "SLEEP"}), or null
     * @param message what is wrong ({@code "missing argument"})
     * @param more the offending part, or null
     * @param column the 0-based column (in bytes of UTF-8, from the backslash) of the error, or -1
     */
    public static ScriptFileException syntaxError(String source, int line, String commandText, String command,
            String message, String more, int column) {
        StringBuilder first = new StringBuilder().append(source).append(':').append(line).append(": ").append(message);
        if (more != null) {
            first.append(" (").append(more).append(')');
        }
        if (column >= 0 && commandText == null) {
            first.append(" at column ").append(column + 1);
        }
        if (command != null) {
            first.append(" in command \"").append(command).append('"');
        }
        if (commandText == null) {
            return of(first.toString());
        }
        if (column < 0) {
            return of(first.toString(), commandText);
        }
        return of(first.toString(), commandText, " ".repeat(column) + "^ error found here");
    }

    /** pgbench's check of a script's conditionals: {@code condition error in script "S" command N: MESSAGE}. */
    public static ScriptFileException conditionError(String source, int commandNumber, String message) {
        return of("condition error in script \"" + source + "\" command " + commandNumber + ": " + message);
    }

    /** The message's lines, the first without pgbench's {@code "pgbench: error: "} prefix. */
    public List<String> lines() {
        return lines;
    }

    /** The first line of the message, without pgbench's prefix. */
    public String firstLine() {
        return lines.get(0);
    }

    /** What pgbench writes on standard error for this refusal, prefix and final newline included. */
    public String pgbenchStderr() {
        return "pgbench: error: " + getMessage() + "\n";
    }
}

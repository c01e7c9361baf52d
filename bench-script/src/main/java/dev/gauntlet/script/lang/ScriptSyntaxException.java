package dev.gauntlet.script.lang;

/**
 * A script that pgbench 15 would refuse to load, with what it says about it: {@code pgbench: error: FILE:LINE: }
 * followed by {@link #getMessage()} (the reason, then the detail in parentheses when there is one, as in
 * {@code unexpected function name (foo)}), then {@code  in command "set"}, the offending line and a caret under
 * {@link #column()}.
 *
 * <p>For an expression, the column is where pgbench puts its caret, counted in bytes (UTF-8) from the start of the
 * expression text given to {@link ExpressionParser}: the last byte of the token at which the error was found, or
 * the position of the end of the line when the expression ended too early. A script parser adds the offset of the
 * expression within the backslash command to get pgbench's column within the line.
 */
public class ScriptSyntaxException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String reason;
    private final String detail;
    private final int column;

    /**
     * A syntax error.
     *
     * @param reason what is wrong, in pgbench's words ({@code syntax error}, {@code unexpected character}...)
     * @param detail what pgbench prints in parentheses after the reason (the character, the function name), or null
     * @param column the 0-based column of pgbench's caret, or -1 when pgbench shows none
     */
    public ScriptSyntaxException(String reason, String detail, int column) {
        super(detail == null ? reason : reason + " (" + detail + ")");
        this.reason = reason;
        this.detail = detail;
        this.column = column;
    }

    /**
     * What is wrong, without the detail.
     *
     * @return pgbench's reason, such as {@code unexpected number of arguments}
     */
    public String reason() {
        return reason;
    }

    /**
     * What pgbench prints in parentheses after the reason.
     *
     * @return the detail (a character, a constant, a function name), or null when there is none
     */
    public String detail() {
        return detail;
    }

    /**
     * Where pgbench puts its caret.
     *
     * @return the 0-based column (in UTF-8 bytes from the start of the parsed text), or -1 when there is none
     */
    public int column() {
        return column;
    }

    /**
     * The same error with its column moved, for a caller that parsed a piece of a longer line.
     *
     * @param offset how many bytes preceded the parsed text on its line
     * @return an equal error whose column is {@code column() + offset} (or -1 if it had none)
     */
    public ScriptSyntaxException shifted(int offset) {
        return new ScriptSyntaxException(reason, detail, column < 0 ? -1 : column + offset);
    }
}

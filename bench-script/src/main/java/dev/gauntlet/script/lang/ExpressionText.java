package dev.gauntlet.script.lang;

/**
 * The text of a {@code \set}, {@code \if} or {@code \elif} expression, kept for the expression compiler, with what
 * it needs to report an error as pgbench 15 does ({@link ScriptFileException#syntaxError}: the command's line, its
 * {@link Command#display()} text, its name, and a column).
 *
 * <p>pgbench reports a column as the byte offset, from the command's backslash, of the last byte of the token the
 * expression parser stopped at: for a token ending just before index {@code k} of {@link #text()}, that is
 * {@code offset() + (UTF-8 bytes of text().substring(0, k)) - 1}; for an error at the end of the expression it is
 * {@link #endColumn()}.
 *
 * @param text the expression as written, from just after the command's name (or the {@code \set} variable) to the
 *     end of the command: it may hold continuation markers ({@code "\\\n"}, {@code "\\\r\n"}), which pgbench skips as
 *     whitespace, and other carriage returns, also whitespace to pgbench (see {@link #lexable()})
 * @param line the 1-based line of the command's backslash
 * @param offset the byte offset (UTF-8) of the text's first character from the command's backslash
 * @param endColumn the column pgbench reports for an error at the end of the expression: the offset of the newline
 *     ending the command, or of the script's last character when the command ends the script
 */
public record ExpressionText(String text, int line, int offset, int endColumn) {

    /**
     * The text with each continuation marker and each carriage return replaced by as many spaces: the same tokens
     * for pgbench's lexer, the same offsets, and no line breaks.
     */
    public String lexable() {
        StringBuilder b = new StringBuilder(text);
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (c == '\\' && i + 1 < b.length() && b.charAt(i + 1) == '\n') {
                b.setCharAt(i, ' ');
                b.setCharAt(i + 1, ' ');
            } else if (c == '\\' && i + 2 < b.length() && b.charAt(i + 1) == '\r' && b.charAt(i + 2) == '\n') {
                b.setCharAt(i, ' ');
                b.setCharAt(i + 1, ' ');
                b.setCharAt(i + 2, ' ');
            } else if (c == '\r') {
                b.setCharAt(i, ' ');
            }
        }
        return b.toString();
    }

    /** Whether the expression is empty but for whitespace (pgbench then reports a syntax error at its end). */
    public boolean isBlank() {
        String s = lexable();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\f' && c != '\u000b') {
                return false;
            }
        }
        return true;
    }
}

package dev.gauntlet.script.lang;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * pgbench 15's expression scanner ({@code exprscan.l}, in its expression state): the longest match wins, a keyword
 * over a function name of the same length. The expression ends at the first newline that is not escaped by a
 * backslash ({@code \} then an optional carriage return then the newline is a continuation, read as a space).
 *
 * <p>pgbench's scanner reports its errors (an unexpected character, an integer or double constant out of range)
 * and, whatever the error, first scans to the end of the line, where any further scanning error takes over; so the
 * error pgbench reports for a line with scanning errors is the last of them. {@link #scan} therefore scans the
 * whole expression first.
 */
final class ExpressionLexer {

    /** What a token is. */
    enum Kind {
        PLUS, MINUS, STAR, SLASH, PERCENT, EQUAL, NOT_EQUAL, LESS_EQUAL, GREATER_EQUAL, SHIFT_LEFT, SHIFT_RIGHT,
        LESS, GREATER, BAR, AMPERSAND, HASH, TILDE, LEFT_PAREN, RIGHT_PAREN, COMMA,
        AND, OR, NOT, IS, ISNULL, NOTNULL, CASE, WHEN, THEN, ELSE, END,
        VARIABLE, NULL, BOOLEAN, MAXINT_PLUS_ONE, INTEGER, DOUBLE, FUNCTION,
        /** The end of the expression (a newline, or the end of the text). */
        EOL
    }

    /**
     * A token.
     *
     * @param kind   what it is
     * @param text   its text (a variable's without the colon)
     * @param start  its first character's index in the text
     * @param end    the index after its last character
     * @param value  its value, for constants
     */
    record Token(Kind kind, String text, int start, int end, Value value) {
    }

    private static final String[] KEYWORDS = {
        "and", "or", "not", "is", "isnull", "notnull", "case", "when", "then", "else", "end", "null", "true", "false"};
    private static final Kind[] KEYWORD_KINDS = {
        Kind.AND, Kind.OR, Kind.NOT, Kind.IS, Kind.ISNULL, Kind.NOTNULL, Kind.CASE, Kind.WHEN, Kind.THEN, Kind.ELSE,
        Kind.END, Kind.NULL, Kind.BOOLEAN, Kind.BOOLEAN};
    private static final String MAXINT_PLUS_ONE = "9223372036854775808";

    private final String text;
    private final boolean endsAtEndOfFile;
    private int position;

    private ExpressionLexer(String text, boolean endsAtEndOfFile) {
        this.text = text;
        this.endsAtEndOfFile = endsAtEndOfFile;
    }

    /**
     * A scanner of an expression.
     *
     * @param text            the expression's text; it ends at its first unescaped newline, or at its end
     * @param endsAtEndOfFile whether the text ends the file without a newline, where pgbench puts its caret on the
     *                        last character rather than after it
     * @return the scanner
     */
    static ExpressionLexer scanner(String text, boolean endsAtEndOfFile) {
        return new ExpressionLexer(text, endsAtEndOfFile);
    }

    /**
     * Scans the whole expression.
     *
     * @return its tokens, the last of kind {@link Kind#EOL}
     * @throws ScriptSyntaxException the last scanning error of the expression, if any
     */
    List<Token> scanAll() throws ScriptSyntaxException {
        List<Token> tokens = new ArrayList<>();
        ScriptSyntaxException lastError = null;
        while (true) {
            try {
                Token token = next();
                if (token == null) {
                    continue;
                }
                tokens.add(token);
                if (token.kind() == Kind.EOL) {
                    break;
                }
            } catch (ScriptSyntaxException e) {
                lastError = e;
            }
        }
        if (lastError != null) {
            throw lastError;
        }
        return tokens;
    }

    /** The next token, or null for a skipped space or continuation. */
    private Token next() throws ScriptSyntaxException {
        int n = text.length();
        if (position >= n) {
            return new Token(Kind.EOL, "", n, n, null);
        }
        int start = position;
        char c = text.charAt(position);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000b') {
            position++;
            return null;
        }
        if (c == '\n') {
            return new Token(Kind.EOL, "", start, start + 1, null);
        }
        if (c == '\\' && text.startsWith("\n", start + 1)) {
            position += 2;
            return null;
        }
        if (c == '\\' && text.startsWith("\r\n", start + 1)) {
            position += 3;
            return null;
        }
        Kind operator = operator(start);
        if (operator != null) {
            return token(operator, start, position, null);
        }
        if (c == ':' && start + 1 < n && isAlnum(text.charAt(start + 1))) {
            int end = start + 1;
            while (end < n && isAlnum(text.charAt(end))) {
                end++;
            }
            position = end;
            return new Token(Kind.VARIABLE, text.substring(start + 1, end), start, end, null);
        }
        if (NumberText.isDigit(c) || c == '.' && start + 1 < n && NumberText.isDigit(text.charAt(start + 1))) {
            return number(start);
        }
        if (isAlpha(c)) {
            int end = start + 1;
            while (end < n && isAlnum(text.charAt(end))) {
                end++;
            }
            position = end;
            String word = text.substring(start, end);
            for (int k = 0; k < KEYWORDS.length; k++) {
                if (word.length() == KEYWORDS[k].length()
                        && NumberText.regionEqualsIgnoreAsciiCase(word, KEYWORDS[k], word.length())) {
                    Value value = KEYWORD_KINDS[k] == Kind.BOOLEAN ? Value.ofBoolean(k == 12) : null;
                    return new Token(KEYWORD_KINDS[k], word, start, end, value);
                }
            }
            return new Token(Kind.FUNCTION, word, start, end, null);
        }
        position = start + 1;
        throw error("unexpected character", String.valueOf(c), position);
    }

    private Kind operator(int start) {
        String two = text.length() >= start + 2 ? text.substring(start, start + 2) : "";
        Kind kind;
        switch (two) {
            case "<>":
            case "!=":
                kind = Kind.NOT_EQUAL;
                break;
            case "<=":
                kind = Kind.LESS_EQUAL;
                break;
            case ">=":
                kind = Kind.GREATER_EQUAL;
                break;
            case "<<":
                kind = Kind.SHIFT_LEFT;
                break;
            case ">>":
                kind = Kind.SHIFT_RIGHT;
                break;
            default:
                kind = null;
        }
        if (kind != null) {
            position = start + 2;
            return kind;
        }
        int index = "+-*/%=<>|&#~(),".indexOf(text.charAt(start));
        if (index < 0) {
            return null;
        }
        position = start + 1;
        return new Kind[] {Kind.PLUS, Kind.MINUS, Kind.STAR, Kind.SLASH, Kind.PERCENT, Kind.EQUAL, Kind.LESS,
            Kind.GREATER, Kind.BAR, Kind.AMPERSAND, Kind.HASH, Kind.TILDE, Kind.LEFT_PAREN, Kind.RIGHT_PAREN,
            Kind.COMMA}[index];
    }

    /** An integer or double constant: the longest of {@code digits}, {@code digits[.digits][e[+-]digits]}. */
    private Token number(int start) throws ScriptSyntaxException {
        int n = text.length();
        int digitsEnd = start;
        while (digitsEnd < n && NumberText.isDigit(text.charAt(digitsEnd))) {
            digitsEnd++;
        }
        int end = digitsEnd;
        if (end < n && text.charAt(end) == '.') {
            end++;
            while (end < n && NumberText.isDigit(text.charAt(end))) {
                end++;
            }
        }
        if (end < n && (text.charAt(end) == 'e' || text.charAt(end) == 'E')) {
            int exponent = end + 1;
            if (exponent < n && (text.charAt(exponent) == '+' || text.charAt(exponent) == '-')) {
                exponent++;
            }
            if (exponent < n && NumberText.isDigit(text.charAt(exponent))) {
                while (exponent < n && NumberText.isDigit(text.charAt(exponent))) {
                    exponent++;
                }
                end = exponent;
            }
        }
        position = end;
        String word = text.substring(start, end);
        if (end == digitsEnd) {
            if (word.equals(MAXINT_PLUS_ONE)) {
                return token(Kind.MAXINT_PLUS_ONE, start, end, null);
            }
            NumberText.Conversion conversion = NumberText.toLong(word);
            if (conversion.status() != NumberText.Status.OK) {
                throw error("bigint constant overflow", word, end);
            }
            return token(Kind.INTEGER, start, end, Value.ofInt(conversion.longValue()));
        }
        NumberText.Conversion conversion = NumberText.toDouble(word);
        if (conversion.status() != NumberText.Status.OK) {
            throw error("double constant overflow", word, end);
        }
        return token(Kind.DOUBLE, start, end, Value.ofDouble(conversion.doubleValue()));
    }

    private Token token(Kind kind, int start, int end, Value value) {
        return new Token(kind, text.substring(start, end), start, end, value);
    }

    private ScriptSyntaxException error(String reason, String detail, int end) {
        return new ScriptSyntaxException(reason, detail, byteColumn(text, end) - 1);
    }

    /**
     * Where pgbench puts its caret for an error found at a token: on the token's last byte, or for the end of the
     * expression on the newline (after the last character) or, at the end of a file without one, on the last byte.
     *
     * @param token a token of this scanner's text
     * @return the byte column
     */
    int caret(Token token) {
        if (token.kind() != Kind.EOL) {
            return byteColumn(text, token.end()) - 1;
        }
        if (token.start() == text.length() && endsAtEndOfFile) {
            return byteColumn(text, token.start()) - 1;
        }
        return byteColumn(text, token.start());
    }

    /**
     * The column pgbench reports for a character of the text: its offset in UTF-8 bytes.
     *
     * @param text  the text
     * @param index a character index (the text's length, or more, for past its end)
     * @return the byte offset
     */
    static int byteColumn(String text, int index) {
        if (index <= 0) {
            return index;
        }
        int within = Math.min(index, text.length());
        return text.substring(0, within).getBytes(StandardCharsets.UTF_8).length + (index - within);
    }

    /** {@code [a-zA-Z\200-\377_]}: a non-ASCII character is a letter, as its UTF-8 bytes are to flex. */
    private static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
    }

    private static boolean isAlnum(char c) {
        return isAlpha(c) || NumberText.isDigit(c);
    }
}

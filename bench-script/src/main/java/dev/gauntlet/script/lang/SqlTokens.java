package dev.gauntlet.script.lang;

/**
 * The SQL tokens whose ends {@link SqlScanner} must find as PostgreSQL 15's lexer does (comments, quoted strings and
 * identifiers, numbers) and the character classes it uses; all on a script's text from a given index.
 */
final class SqlTokens {

    private SqlTokens() {
    }

    /** The character at {@code i}, or {@code '\0'} past the end. */
    static char at(String text, int i) {
        return i < text.length() ? text.charAt(i) : '\0';
    }

    /** The index of the newline ending the line at {@code from} (a {@code '\n'} or {@code '\r'}), or the end. */
    static int lineEnd(String text, int from) {
        int i = from;
        while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
            i++;
        }
        return i;
    }

    /** Just after the {@code *}{@code /} closing a (nested) block comment whose opening ends before {@code from}. */
    static int blockCommentEnd(String text, int from) {
        int depth = 0;
        int i = from;
        while (i < text.length()) {
            if (text.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (text.startsWith("*/", i)) {
                if (depth == 0) {
                    return i + 2;
                }
                depth--;
                i += 2;
            } else {
                i++;
            }
        }
        return text.length();
    }

    /**
     * Just after the quote closing a string literal whose opening quote ends before {@code from}, following
     * SQL's continuation of a literal by another one after a newline ({@code 'a'<newline>'b'} is one literal, and
     * an {@code E''} literal's continuation keeps its backslash escapes).
     */
    static int stringEnd(String text, int from, boolean backslashEscapes) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (backslashEscapes && c == '\\') {
                i = Math.min(i + 2, text.length());
            } else if (c == '\'') {
                if (at(text, i + 1) == '\'') {
                    i += 2;
                    continue;
                }
                int continued = continuation(text, i + 1);
                if (continued < 0) {
                    return i + 1;
                }
                i = continued;
            } else {
                i++;
            }
        }
        return text.length();
    }

    /** Just after the quote that continues a literal closed before {@code from}, or -1 when none does. */
    static int continuation(String text, int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\f') {
                i++;
            } else if (c == '-' && at(text, i + 1) == '-') {
                i = lineEnd(text, i);
            } else {
                break;
            }
        }
        if (i >= text.length() || (text.charAt(i) != '\n' && text.charAt(i) != '\r')) {
            return -1;
        }
        i++;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (isSpace(c)) {
                i++;
            } else if (c == '-' && at(text, i + 1) == '-') {
                int end = lineEnd(text, i);
                if (end >= text.length()) {
                    return -1;
                }
                i = end + 1;
            } else {
                break;
            }
        }
        return i < text.length() && text.charAt(i) == '\'' ? i + 1 : -1;
    }

    /** Just after the {@code "} that closes a quoted identifier opened before {@code from} ({@code ""} is a quote). */
    static int quotedIdentifierEnd(String text, int from) {
        int i = from;
        while (i < text.length()) {
            if (text.charAt(i) == '"') {
                if (at(text, i + 1) != '"') {
                    return i + 1;
                }
                i += 2;
            } else {
                i++;
            }
        }
        return text.length();
    }

    /** The end of the number starting at {@code from}: digits, a fraction, an exponent ({@code 1..} stops at 1). */
    static int numberEnd(String text, int from) {
        int i = from;
        while (isDigit(at(text, i))) {
            i++;
        }
        if (at(text, i) == '.' && at(text, i + 1) != '.') {
            i++;
            while (isDigit(at(text, i))) {
                i++;
            }
        }
        if (at(text, i) == 'e' || at(text, i) == 'E') {
            int j = i + 1;
            if (at(text, j) == '+' || at(text, j) == '-') {
                j++;
            }
            if (isDigit(at(text, j))) {
                i = j;
                while (isDigit(at(text, i))) {
                    i++;
                }
            }
        }
        return i;
    }

    /** {@code s} with A-Z in lower case, as {@code pg_strcasecmp} compares. */
    static String asciiLowerCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return b.toString();
    }

    /** SQL whitespace: space, tab, newline, carriage return, form feed. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** A letter, {@code _} or any non-ASCII character (a high-bit byte to the C lexers). */
    static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    static boolean isIdentifierStart(char c) {
        return isLetter(c);
    }

    static boolean isIdentifierPart(char c) {
        return isLetter(c) || isDigit(c) || c == '$';
    }

    static boolean isDollarTagStart(char c) {
        return isLetter(c);
    }

    static boolean isDollarTagPart(char c) {
        return isLetter(c) || isDigit(c);
    }

    /** A character of a psql variable name, as {@code :name} (letters, digits, {@code _}, non-ASCII). */
    static boolean isVariableChar(char c) {
        return isLetter(c) || isDigit(c);
    }
}

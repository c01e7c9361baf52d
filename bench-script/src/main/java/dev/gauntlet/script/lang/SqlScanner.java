package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where pgbench's SQL commands end, as PostgreSQL 15's {@code psqlscan.l} decides for pgbench (standard conforming
 * strings on, no psql variables): at a {@code ;} outside quotes, comments, dollar quotes and parentheses and outside
 * the {@code BEGIN ... END} body of a {@code CREATE [OR REPLACE] FUNCTION|PROCEDURE}; or at a backslash that starts a
 * meta-command; or at the end of the script.
 *
 * <p>The text collected for a command is the source with these changes only: whitespace and {@code --} comments
 * before the command's first token are dropped (later ones are kept); {@code \;} becomes {@code ;} (a compound
 * command: the command goes on) and {@code \:} becomes {@code :}; {@code :{?name}} becomes {@code FALSE} (pgbench
 * has no psql variables, so every such test is false). {@code :'name'} and {@code :"name"} are kept as they are.
 *
 * <p>The scanner's state (parenthesis depth, {@code BEGIN} depth, the identifiers seen since the last {@code ;})
 * lives on across commands and meta-commands, as psqlscan's does.
 */
final class SqlScanner {

    /** What ended a scan. */
    enum Stop {
        /** A command-ending semicolon, which the command's text includes. */
        SEMICOLON,
        /** A backslash that starts a meta-command; the position is just after it. */
        BACKSLASH,
        /** The end of the script. */
        END
    }

    /** The text of one command as psqlscan collects it. */
    static final class Buffer {
        final StringBuilder text = new StringBuilder();
        /** The source index of the first character collected, or -1. */
        int sourceStart = -1;
        /** Offsets in {@link #text} of the semicolons that came from {@code \;}. */
        final List<Integer> compoundSemicolons = new ArrayList<>();
    }

    private static final String[] FUNCTION_WORDS = {"create", "function", "procedure", "or", "replace"};

    private final String text;
    private final int length;
    private int pos;
    private int parenDepth;
    private int beginDepth;
    private int identifierCount;
    private final char[] identifiers = new char[4];
    private Buffer buffer;

    SqlScanner(String text) {
        this.text = text;
        this.length = text.length();
    }

    int position() {
        return pos;
    }

    void moveTo(int position) {
        this.pos = position;
    }

    /** Collects the next command's text into {@code into}, up to what stops it. */
    Stop scan(Buffer into) {
        this.buffer = into;
        while (pos < length) {
            char c = text.charAt(pos);
            char next = charAt(pos + 1);
            int start = pos;
            if (isSpace(c)) {
                while (pos < length && isSpace(text.charAt(pos))) {
                    pos++;
                }
                whitespace(start);
            } else if (c == '-' && next == '-') {
                pos = lineEnd(pos);
                whitespace(start);
            } else if (c == '/' && next == '*') {
                pos = blockCommentEnd(pos + 2);
                echo(start);
            } else if (c == '\'') {
                pos = stringEnd(pos + 1, false);
                echo(start);
            } else if ((c == 'e' || c == 'E') && next == '\'') {
                pos = stringEnd(pos + 2, true);
                echo(start);
            } else if ("bBxXnN".indexOf(c) >= 0 && next == '\'') {
                pos = stringEnd(pos + 2, false);
                echo(start);
            } else if ((c == 'u' || c == 'U') && next == '&') {
                char third = charAt(pos + 2);
                pos = third == '\'' ? stringEnd(pos + 3, false)
                        : third == '"' ? quotedIdentifierEnd(pos + 3) : pos + 1;
                echo(start);
            } else if (c == '"') {
                pos = quotedIdentifierEnd(pos + 1);
                echo(start);
            } else if (c == '$') {
                dollar();
                echo(start);
            } else if (isIdentifierStart(c)) {
                pos++;
                while (pos < length && isIdentifierPart(text.charAt(pos))) {
                    pos++;
                }
                identifier(text.substring(start, pos));
                echo(start);
            } else if (isDigit(c) || (c == '.' && isDigit(next))) {
                pos = numberEnd(pos);
                echo(start);
            } else if (c == ':') {
                colon();
            } else if (c == '\\') {
                if (next == ';' || next == ':') {
                    generated(String.valueOf(next), start);
                    if (next == ';') {
                        buffer.compoundSemicolons.add(buffer.text.length() - 1);
                        identifierCount = 0;
                    }
                    pos += 2;
                } else {
                    pos++;
                    return Stop.BACKSLASH;
                }
            } else {
                pos++;
                echo(start);
                if (c == '(') {
                    parenDepth++;
                } else if (c == ')' && parenDepth > 0) {
                    parenDepth--;
                } else if (c == ';' && parenDepth == 0 && beginDepth == 0) {
                    identifierCount = 0;
                    return Stop.SEMICOLON;
                }
            }
        }
        return Stop.END;
    }

    private char charAt(int i) {
        return i < length ? text.charAt(i) : '\0';
    }

    private void echo(int start) {
        if (buffer.text.length() == 0) {
            buffer.sourceStart = start;
        }
        buffer.text.append(text, start, pos);
    }

    private void whitespace(int start) {
        if (buffer.text.length() > 0) {
            buffer.text.append(text, start, pos);
        }
    }

    private void generated(String s, int at) {
        if (buffer.text.length() == 0) {
            buffer.sourceStart = at;
        }
        buffer.text.append(s);
    }

    /** The index of the newline ending the line at {@code from} (a {@code '\n'} or {@code '\r'}), or the end. */
    private int lineEnd(int from) {
        int i = from;
        while (i < length && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
            i++;
        }
        return i;
    }

    /** Just after the {@code *}{@code /} closing a (nested) block comment whose opening ends before {@code from}. */
    private int blockCommentEnd(int from) {
        int depth = 0;
        int i = from;
        while (i < length) {
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
        return length;
    }

    /**
     * Just after the quote closing a string literal whose opening quote ends before {@code from}, following
     * SQL's continuation of a literal by another one after a newline ({@code 'a'<newline>'b'} is one literal, and
     * an {@code E''} literal's continuation keeps its backslash escapes).
     */
    private int stringEnd(int from, boolean backslashEscapes) {
        int i = from;
        while (i < length) {
            char c = text.charAt(i);
            if (backslashEscapes && c == '\\') {
                i = Math.min(i + 2, length);
            } else if (c == '\'') {
                if (charAt(i + 1) == '\'') {
                    i += 2;
                    continue;
                }
                int continued = continuation(i + 1);
                if (continued < 0) {
                    return i + 1;
                }
                i = continued;
            } else {
                i++;
            }
        }
        return length;
    }

    /** Just after the quote that continues a literal closed before {@code from}, or -1 when none does. */
    private int continuation(int from) {
        int i = from;
        while (i < length) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\f') {
                i++;
            } else if (c == '-' && charAt(i + 1) == '-') {
                i = lineEnd(i);
            } else {
                break;
            }
        }
        if (i >= length || (text.charAt(i) != '\n' && text.charAt(i) != '\r')) {
            return -1;
        }
        i++;
        while (i < length) {
            char c = text.charAt(i);
            if (isSpace(c)) {
                i++;
            } else if (c == '-' && charAt(i + 1) == '-') {
                int end = lineEnd(i);
                if (end >= length) {
                    return -1;
                }
                i = end + 1;
            } else {
                break;
            }
        }
        return i < length && text.charAt(i) == '\'' ? i + 1 : -1;
    }

    private int quotedIdentifierEnd(int from) {
        int i = from;
        while (i < length) {
            if (text.charAt(i) == '"') {
                if (charAt(i + 1) != '"') {
                    return i + 1;
                }
                i += 2;
            } else {
                i++;
            }
        }
        return length;
    }

    /** A {@code $tag$} dollar quote (to its closing tag), a {@code $n} parameter or a lone {@code $}. */
    private void dollar() {
        int i = pos + 1;
        if (i < length && isDollarTagStart(text.charAt(i))) {
            i++;
            while (i < length && isDollarTagPart(text.charAt(i))) {
                i++;
            }
        }
        if (i < length && text.charAt(i) == '$') {
            String tag = text.substring(pos, i + 1);
            int close = text.indexOf(tag, i + 1);
            pos = close < 0 ? length : close + tag.length();
        } else if (isDigit(charAt(pos + 1))) {
            pos++;
            while (pos < length && isDigit(text.charAt(pos))) {
                pos++;
            }
        } else {
            pos++;
        }
    }

    private int numberEnd(int from) {
        int i = from;
        while (isDigit(charAt(i))) {
            i++;
        }
        if (charAt(i) == '.' && charAt(i + 1) != '.') {
            i++;
            while (isDigit(charAt(i))) {
                i++;
            }
        }
        if (charAt(i) == 'e' || charAt(i) == 'E') {
            int j = i + 1;
            if (charAt(j) == '+' || charAt(j) == '-') {
                j++;
            }
            if (isDigit(charAt(j))) {
                i = j;
                while (isDigit(charAt(i))) {
                    i++;
                }
            }
        }
        return i;
    }

    /** {@code ::}, {@code :name}, {@code :'name'}, {@code :"name"}, {@code :{?name}} (becomes FALSE) or {@code :}. */
    private void colon() {
        int start = pos;
        char next = charAt(pos + 1);
        if (next == ':') {
            pos += 2;
        } else if (isVariableChar(next)) {
            pos += 2;
            while (isVariableChar(charAt(pos))) {
                pos++;
            }
        } else if (next == '\'' || next == '"') {
            int i = pos + 2;
            while (isVariableChar(charAt(i))) {
                i++;
            }
            pos = i > pos + 2 && charAt(i) == next ? i + 1 : pos + 1;
        } else if (next == '{' && charAt(pos + 2) == '?') {
            int i = pos + 3;
            while (isVariableChar(charAt(i))) {
                i++;
            }
            if (i > pos + 3 && charAt(i) == '}') {
                pos = i + 1;
                generated("FALSE", start);
                return;
            }
            pos++;
        } else {
            pos++;
        }
        echo(start);
    }

    /** psqlscan's watch for {@code CREATE [OR REPLACE] FUNCTION|PROCEDURE ... BEGIN ... END}. */
    private void identifier(String word) {
        if (identifierCount == 0) {
            Arrays.fill(identifiers, '\0');
        }
        String lower = asciiLowerCase(word);
        if (identifierCount < identifiers.length && Arrays.asList(FUNCTION_WORDS).contains(lower)) {
            identifiers[identifierCount] = lower.charAt(0);
        }
        identifierCount++;
        boolean routine = identifiers[0] == 'c'
                && (identifiers[1] == 'f' || identifiers[1] == 'p'
                        || (identifiers[1] == 'o' && identifiers[2] == 'r'
                                && (identifiers[3] == 'f' || identifiers[3] == 'p')));
        if (routine && parenDepth == 0) {
            if (lower.equals("begin")) {
                beginDepth++;
            } else if (lower.equals("case")) {
                if (beginDepth >= 1) {
                    beginDepth++;
                }
            } else if (lower.equals("end") && beginDepth > 0) {
                beginDepth--;
            }
        }
    }

    static String asciiLowerCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return b.toString();
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private static boolean isIdentifierStart(char c) {
        return isLetter(c);
    }

    private static boolean isIdentifierPart(char c) {
        return isLetter(c) || isDigit(c) || c == '$';
    }

    private static boolean isDollarTagStart(char c) {
        return isLetter(c);
    }

    private static boolean isDollarTagPart(char c) {
        return isLetter(c) || isDigit(c);
    }

    private static boolean isVariableChar(char c) {
        return isLetter(c) || isDigit(c);
    }
}

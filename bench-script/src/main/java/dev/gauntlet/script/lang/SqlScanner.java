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
            if (SqlTokens.isSpace(c)) {
                while (pos < length && SqlTokens.isSpace(text.charAt(pos))) {
                    pos++;
                }
                whitespace(start);
            } else if (c == '-' && next == '-') {
                pos = SqlTokens.lineEnd(text, pos);
                whitespace(start);
            } else if (c == '/' && next == '*') {
                pos = SqlTokens.blockCommentEnd(text, pos + 2);
                echo(start);
            } else if (c == '\'') {
                pos = SqlTokens.stringEnd(text, pos + 1, false);
                echo(start);
            } else if ((c == 'e' || c == 'E') && next == '\'') {
                pos = SqlTokens.stringEnd(text, pos + 2, true);
                echo(start);
            } else if ("bBxXnN".indexOf(c) >= 0 && next == '\'') {
                pos = SqlTokens.stringEnd(text, pos + 2, false);
                echo(start);
            } else if ((c == 'u' || c == 'U') && next == '&') {
                char third = charAt(pos + 2);
                pos = third == '\'' ? SqlTokens.stringEnd(text, pos + 3, false)
                        : third == '"' ? SqlTokens.quotedIdentifierEnd(text, pos + 3) : pos + 1;
                echo(start);
            } else if (c == '"') {
                pos = SqlTokens.quotedIdentifierEnd(text, pos + 1);
                echo(start);
            } else if (c == '$') {
                dollar();
                echo(start);
            } else if (SqlTokens.isIdentifierStart(c)) {
                pos++;
                while (pos < length && SqlTokens.isIdentifierPart(text.charAt(pos))) {
                    pos++;
                }
                identifier(text.substring(start, pos));
                echo(start);
            } else if (SqlTokens.isDigit(c) || (c == '.' && SqlTokens.isDigit(next))) {
                pos = SqlTokens.numberEnd(text, pos);
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

    /** A {@code $tag$} dollar quote (to its closing tag), a {@code $n} parameter or a lone {@code $}. */
    private void dollar() {
        int i = pos + 1;
        if (i < length && SqlTokens.isDollarTagStart(text.charAt(i))) {
            i++;
            while (i < length && SqlTokens.isDollarTagPart(text.charAt(i))) {
                i++;
            }
        }
        if (i < length && text.charAt(i) == '$') {
            String tag = text.substring(pos, i + 1);
            int close = text.indexOf(tag, i + 1);
            pos = close < 0 ? length : close + tag.length();
        } else if (SqlTokens.isDigit(charAt(pos + 1))) {
            pos++;
            while (pos < length && SqlTokens.isDigit(text.charAt(pos))) {
                pos++;
            }
        } else {
            pos++;
        }
    }

    /** {@code ::}, {@code :name}, {@code :'name'}, {@code :"name"}, {@code :{?name}} (becomes FALSE) or {@code :}. */
    private void colon() {
        int start = pos;
        char next = charAt(pos + 1);
        if (next == ':') {
            pos += 2;
        } else if (SqlTokens.isVariableChar(next)) {
            pos += 2;
            while (SqlTokens.isVariableChar(charAt(pos))) {
                pos++;
            }
        } else if (next == '\'' || next == '"') {
            int i = pos + 2;
            while (SqlTokens.isVariableChar(charAt(i))) {
                i++;
            }
            pos = i > pos + 2 && charAt(i) == next ? i + 1 : pos + 1;
        } else if (next == '{' && charAt(pos + 2) == '?') {
            int i = pos + 3;
            while (SqlTokens.isVariableChar(charAt(i))) {
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
        String lower = SqlTokens.asciiLowerCase(word);
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
}

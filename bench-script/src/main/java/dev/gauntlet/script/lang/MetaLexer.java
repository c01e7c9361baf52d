package dev.gauntlet.script.lang;

/**
 * How pgbench 15 reads a meta-command after its backslash ({@code exprscan.l}): whitespace-separated words, or an
 * expression, up to the end of the line. A backslash right before the newline ({@code "\\\n"} or
 * {@code "\\\r\n"}) continues the command on the next line, also right after a word. Spaces, tabs, carriage returns,
 * form and vertical feeds separate words; there is no quoting.
 */
final class MetaLexer {

    /** A word and the index of its first character in the script. */
    record Word(String text, int start) {
    }

    private final String text;
    private final int length;
    private int pos;

    MetaLexer(String text, int position) {
        this.text = text;
        this.length = text.length();
        this.pos = position;
    }

    /** Where the lexer is: after the newline that ended the command, once it has ended. */
    int position() {
        return pos;
    }

    /** The next word of the command, or null (having read the newline) when the command has ended. */
    Word nextWord() {
        while (pos < length) {
            char c = text.charAt(pos);
            if (isSpace(c)) {
                pos++;
            } else if (c == '\n') {
                pos++;
                return null;
            } else if (continuation(pos) > 0) {
                pos += continuation(pos);
            } else {
                int start = pos;
                while (pos < length && !isSpace(text.charAt(pos)) && text.charAt(pos) != '\n') {
                    pos++;
                }
                int marker = continuation(pos - 1);
                if (text.charAt(pos - 1) == '\\' && marker > 0) {
                    String word = text.substring(start, pos - 1);
                    pos = pos - 1 + marker;
                    return new Word(word, start);
                }
                return new Word(text.substring(start, pos), start);
            }
        }
        return null;
    }

    /**
     * Reads an expression to the end of the command and returns where it ends: the index of the newline that ends
     * the command (which is read) or the end of the script.
     */
    int expressionEnd() {
        while (pos < length) {
            char c = text.charAt(pos);
            int marker = continuation(pos);
            if (marker > 0) {
                pos += marker;
            } else if (c == '\n') {
                pos++;
                return pos - 1;
            } else {
                pos++;
            }
        }
        return length;
    }

    /** The length of the continuation marker at {@code i} (2 or 3), or 0 when there is none. */
    private int continuation(int i) {
        if (i < 0 || i >= length || text.charAt(i) != '\\') {
            return 0;
        }
        if (i + 1 < length && text.charAt(i + 1) == '\n') {
            return 2;
        }
        if (i + 2 < length && text.charAt(i + 1) == '\r' && text.charAt(i + 2) == '\n') {
            return 3;
        }
        return 0;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000b';
    }
}

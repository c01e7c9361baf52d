package dev.gauntlet.script.workload;

import dev.gauntlet.script.lang.SqlText;

/**
 * A command's text as a pgjdbc {@code PreparedStatement} takes it: each variable reference a {@code ?} where pgbench
 * writes {@code $n}, and each {@code ?} of the command's own (a jsonb operator) written {@code ??} where pgjdbc would
 * read a placeholder: outside quotes, quoted identifiers, dollar quotes and comments, which it scans as the server
 * does.
 */
final class JdbcPlaceholders {

    private JdbcPlaceholders() {
    }

    static String of(SqlText sql) {
        StringBuilder b = new StringBuilder();
        Scan scan = new Scan();
        for (SqlText.Piece piece : sql.pieces()) {
            if (piece instanceof SqlText.Reference) {
                b.append('?');
            } else {
                scan.append(((SqlText.Literal) piece).source(), b);
            }
        }
        return b.toString();
    }

    /** Where the text so far leaves off: in code, a quote, a comment or a dollar quote. */
    private static final class Scan {
        private char quote;          // '\'' or '"' when inside one, else 0
        private boolean lineComment;
        private int blockDepth;
        private String dollarTag;    // the closing tag when inside a dollar quote

        void append(String s, StringBuilder b) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
                if (lineComment) {
                    lineComment = c != '\n';
                } else if (blockDepth > 0) {
                    if (c == '*' && next == '/') {
                        blockDepth--;
                        b.append(c);
                        c = next;
                        i++;
                    } else if (c == '/' && next == '*') {
                        blockDepth++;
                        b.append(c);
                        c = next;
                        i++;
                    }
                } else if (quote != 0) {
                    if (c == quote) {
                        quote = 0;
                    }
                } else if (dollarTag != null) {
                    if (s.startsWith(dollarTag, i)) {
                        b.append(dollarTag, 0, dollarTag.length() - 1);
                        i += dollarTag.length() - 1;
                        c = '$';
                        dollarTag = null;
                    }
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '-' && next == '-') {
                    lineComment = true;
                } else if (c == '/' && next == '*') {
                    blockDepth = 1;
                    b.append(c);
                    c = next;
                    i++;
                } else if (c == '$') {
                    int end = s.indexOf('$', i + 1);
                    if (end > i && s.substring(i + 1, end).matches("[A-Za-z_]?[A-Za-z_0-9]*")) {
                        dollarTag = s.substring(i, end + 1);
                        b.append(dollarTag);
                        i = end;
                        continue;
                    }
                } else if (c == '?') {
                    b.append('?');
                }
                b.append(c);
            }
        }
    }
}

package dev.gauntlet.script.lang;

import java.util.ArrayList;
import java.util.List;

/** Makes an SQL {@link Command.Sql} of the text psqlscan collected, as pgbench 15's {@code create_sql_command}. */
final class SqlCommands {

    /** pgbench keeps at most this many bytes of a command's text for display (a 128-byte buffer). */
    private static final int DISPLAY_BYTES = 127;

    private SqlCommands() {
    }

    /** The command collected in {@code buffer}, or null when it is only whitespace and {@code --} comments. */
    static Command.Sql of(SourceText source, SqlScanner.Buffer buffer) {
        String collected = buffer.text.toString();
        int skip = skipComments(collected);
        if (skip < 0) {
            return null;
        }
        String text = collected.substring(skip);
        int line = source.lineOf(buffer.sourceStart) + count(collected.substring(0, skip), '\n');
        List<Integer> splits = new ArrayList<>();
        for (int s : buffer.compoundSemicolons) {
            if (s >= skip) {
                splits.add(s - skip);
            }
        }
        return new Command.Sql(line, display(text), SqlText.parse(text), !splits.isEmpty(),
                queryCount(text, splits), null);
    }

    /** pgbench's {@code skip_sql_comments}: the offset after leading whitespace and {@code --} lines, or -1. */
    static int skipComments(String sql) {
        int p = 0;
        while (p < sql.length()) {
            char c = sql.charAt(p);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000b') {
                p++;
            } else if (sql.startsWith("--", p)) {
                int newline = sql.indexOf('\n', p);
                if (newline < 0) {
                    return -1;
                }
                p = newline + 1;
            } else {
                break;
            }
        }
        return p < sql.length() ? p : -1;
    }

    /** The command's first line, at most 127 bytes of it, as pgbench shows it. */
    static String display(String text) {
        String prefix = SourceText.utf8Prefix(text, DISPLAY_BYTES);
        int end = prefix.length();
        for (int i = 0; i < prefix.length(); i++) {
            if (prefix.charAt(i) == '\n' || prefix.charAt(i) == '\r') {
                end = i;
                break;
            }
        }
        return prefix.substring(0, end);
    }

    private static int queryCount(String text, List<Integer> splits) {
        int count = 0;
        int from = 0;
        List<Integer> ends = new ArrayList<>(splits);
        ends.add(text.length());
        for (int end : ends) {
            if (!isEmptyQuery(text.substring(from, end))) {
                count++;
            }
            from = end + 1;
        }
        return count;
    }

    /** Whether a part of a compound holds only whitespace, comments and semicolons. */
    private static boolean isEmptyQuery(String part) {
        int i = 0;
        while (i < part.length()) {
            char c = part.charAt(i);
            if (SqlTokens.isSpace(c) || c == ';' || c == '\u000b') {
                i++;
            } else if (part.startsWith("--", i)) {
                int newline = part.indexOf('\n', i);
                i = newline < 0 ? part.length() : newline + 1;
            } else if (part.startsWith("/*", i)) {
                int depth = 0;
                i += 2;
                while (i < part.length()) {
                    if (part.startsWith("/*", i)) {
                        depth++;
                        i += 2;
                    } else if (part.startsWith("*/", i)) {
                        i += 2;
                        if (depth-- == 0) {
                            break;
                        }
                    } else {
                        i++;
                    }
                }
            } else {
                return false;
            }
        }
        return true;
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }
}

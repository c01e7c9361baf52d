package dev.gauntlet.script.lang;

import java.util.Arrays;

/**
 * A script's text with what pgbench's error messages need of it: line numbers (pgbench counts {@code '\n'} only,
 * so a lone {@code '\r'} does not start a line) and column offsets in bytes of UTF-8 (pgbench works on bytes).
 */
final class SourceText {

    private final String text;
    private final int[] newlines;

    SourceText(String text) {
        this.text = text;
        int[] found = new int[16];
        int count = 0;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
            if (count == found.length) {
                found = Arrays.copyOf(found, count * 2);
            }
            found[count++] = i;
        }
        this.newlines = Arrays.copyOf(found, count);
    }

    String text() {
        return text;
    }

    int length() {
        return text.length();
    }

    /** The 1-based line of the character at {@code index}. */
    int lineOf(int index) {
        int at = Arrays.binarySearch(newlines, index);
        int before = at >= 0 ? at : -at - 1;
        return before + 1;
    }

    /** The number of bytes the characters {@code [from, to)} take in UTF-8. */
    int bytes(int from, int to) {
        return utf8Length(text, from, to);
    }

    /** The number of bytes the characters {@code [from, to)} of {@code s} take in UTF-8. */
    static int utf8Length(CharSequence s, int from, int to) {
        int bytes = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * The longest prefix of {@code s} that fits in {@code maxBytes} bytes of UTF-8 without splitting a character
     * (pgbench copies bytes, so where it would split a character it keeps part of it; a String cannot).
     */
    static String utf8Prefix(String s, int maxBytes) {
        int bytes = 0;
        int i = 0;
        while (i < s.length()) {
            int step = Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1)) ? 2 : 1;
            int size = utf8Length(s, i, i + step);
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            i += step;
        }
        return s.substring(0, i);
    }

    /** The text of {@code [from, to)} with any trailing {@code '\n'} and {@code '\r'} dropped, as pgbench chomps. */
    String chomped(int from, int to) {
        int end = to;
        while (end > from && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return text.substring(from, end);
    }
}

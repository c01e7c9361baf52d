package dev.gauntlet.core.result;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people type them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1h30m}; a bare number is seconds. */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");

    private Durations() {
    }

    /** Parses a duration; {@link IllegalArgumentException} with a one-line message saying how to write one. */
    public static Duration parse(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.matches("\\d+(\\.\\d+)?")) {
            return Duration.ofNanos((long) (Double.parseDouble(v) * 1e9));
        }
        Matcher m = PART.matcher(v);
        int pos = 0;
        double nanos = 0;
        while (m.find() && m.start() == pos) {
            double n = Double.parseDouble(m.group(1));
            nanos += n * switch (m.group(2)) {
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> 86400e9;
            };
            pos = m.end();
        }
        if (pos == 0 || pos != v.length()) {
            throw new IllegalArgumentException("'" + value + "' is not a duration; write it like 500ms, 30s, 5m, 2h or 1h30m");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** The short form used in progress lines and reports: 90s -> "1m30s". */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 != 0 || ms == 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        StringBuilder b = new StringBuilder();
        if (s >= 3600) {
            b.append(s / 3600).append('h');
            s %= 3600;
        }
        if (s >= 60) {
            b.append(s / 60).append('m');
            s %= 60;
        }
        if (s > 0) {
            b.append(s).append('s');
        }
        return b.toString();
    }
}

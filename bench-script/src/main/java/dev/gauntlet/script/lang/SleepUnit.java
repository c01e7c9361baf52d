package dev.gauntlet.script.lang;

import java.util.Locale;

/** The unit of a {@code \sleep}: {@code us}, {@code ms} or {@code s} (the default), in any case. */
public enum SleepUnit {
    /** Microseconds. */
    US(1),
    /** Milliseconds. */
    MS(1_000),
    /** Seconds, also when no unit is given. */
    S(1_000_000);

    private final long micros;

    SleepUnit(long micros) {
        this.micros = micros;
    }

    /** Microseconds per unit. */
    public long micros() {
        return micros;
    }

    /** The unit named {@code word} ({@code "MS"}, {@code "us"}...), or null when pgbench knows no such unit. */
    static SleepUnit named(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "us" -> US;
            case "ms" -> MS;
            case "s" -> S;
            default -> null;
        };
    }
}

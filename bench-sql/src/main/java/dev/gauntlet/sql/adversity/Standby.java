package dev.gauntlet.sql.adversity;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The embedded topology's standby: none, or streaming replication that commits wait for (sync) or not (async). */
public enum Standby {
    NONE, SYNC, ASYNC;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Standby parse(String text) {
        return Arrays.stream(values()).filter(s -> s.label().equals(text.trim().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("standby '" + text + "' is not one of "
                        + Arrays.stream(values()).map(Standby::label).collect(Collectors.joining(", "))));
    }
}

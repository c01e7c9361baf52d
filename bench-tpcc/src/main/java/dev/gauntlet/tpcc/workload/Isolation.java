package dev.gauntlet.tpcc.workload;

import java.sql.Connection;
import java.util.Locale;

/** Transaction isolation levels a run may ask for, spelled as on the command line. */
public enum Isolation {
    READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),
    REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ),
    SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE);

    private final int jdbcLevel;

    Isolation(int jdbcLevel) {
        this.jdbcLevel = jdbcLevel;
    }

    public int jdbcLevel() {
        return jdbcLevel;
    }

    /** As typed: {@code read-committed}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Accepts {@code read-committed}, {@code READ_COMMITTED}, {@code read committed}. */
    public static Isolation parse(String text) {
        String key = text.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (Isolation i : values()) {
            if (i.name().equals(key)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown isolation '" + text
                + "'; use read-committed, repeatable-read or serializable");
    }
}

package dev.gauntlet.script.pgbench;

/**
 * pgbench's messages as PostgreSQL 15's frontend logging prints them on standard error: the program's name, the level
 * ({@code error}, {@code warning}, {@code detail}, {@code hint}; none for information), the message.
 */
public final class PgbenchLog {

    private PgbenchLog() {
    }

    public static String error(String message) {
        return "pgbench: error: " + message;
    }

    public static String warning(String message) {
        return "pgbench: warning: " + message;
    }

    public static String detail(String message) {
        return "pgbench: detail: " + message;
    }

    public static String hint(String message) {
        return "pgbench: hint: " + message;
    }

    public static String info(String message) {
        return "pgbench: " + message;
    }
}

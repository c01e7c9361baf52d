package dev.gauntlet.script.pgbench;

import java.util.List;

/**
 * pgbench ending before or instead of its work: the exit status it gives and what it writes on standard error, line by
 * line as pgbench writes them ({@code pgbench: error: ...}, {@code pgbench: hint: ...}).
 */
public final class PgbenchExit extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final List<String> lines;

    public PgbenchExit(int status, List<String> lines) {
        super(String.join("\n", lines));
        this.status = status;
        this.lines = List.copyOf(lines);
    }

    /** pgbench's {@code pg_fatal}: {@code pgbench: error: MESSAGE}, exit 1. */
    public static PgbenchExit fatal(String message) {
        return new PgbenchExit(1, List.of(PgbenchLog.error(message)));
    }

    /** A complaint, then pgbench's hint to read --help, exit 1 (a bad option, too many arguments). */
    public static PgbenchExit usage(String complaint) {
        return new PgbenchExit(1, List.of(complaint, PgbenchLog.hint("Try \"pgbench --help\" for more information.")));
    }

    public int status() {
        return status;
    }

    /** The lines for standard error, without their newlines. */
    public List<String> lines() {
        return lines;
    }
}

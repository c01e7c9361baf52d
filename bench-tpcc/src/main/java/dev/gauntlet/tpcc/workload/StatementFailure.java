package dev.gauntlet.tpcc.workload;

import java.sql.SQLException;
import java.util.Optional;

/**
 * A statement that fails on purpose, so that in auto-commit nothing of it is left: a text cast to an integer in a
 * {@code CASE} raises {@code invalid_text_representation} (22P02) with the text in its message, as a function's
 * {@code RAISE} would without a function. New-Order fails so on missing stock, Delivery on a new_order row without its
 * order; the driver reads what the statement said from the failure.
 */
final class StatementFailure {

    private StatementFailure() {
    }

    /** SQL that fails with {@code prefix} followed by {@code detail} (an SQL text expression) when {@code condition}. */
    static String raise(String condition, String prefix, String detail) {
        return "CASE WHEN " + condition + " THEN ('" + prefix + "' || " + detail + ")::int END";
    }

    /**
     * What follows {@code prefix} in the server's message of {@code e} (up to the closing quote the cast's message
     * puts around its text), or empty when the failure is not one that said {@code prefix}.
     */
    static Optional<String> detail(SQLException e, String prefix) {
        String message = e instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null
                ? p.getServerErrorMessage().getMessage() : String.valueOf(e.getMessage());
        int at = message.indexOf(prefix);
        if (at < 0) {
            return Optional.empty();
        }
        int end = message.indexOf('"', at);
        return Optional.of(message.substring(at + prefix.length(), end < 0 ? message.length() : end));
    }
}

package dev.gauntlet.sql.check;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Which {@link SqlCheck}s of a run are skipped, and what a skipped one says instead. Both wordings come
 * from the workload: only it knows the option that includes the expensive checks in its command, and what
 * change of its data ends the checks that hold only on the data as loaded.
 *
 * @param includeExpensive    run the expensive checks too
 * @param howToRunExpensive   what a user does to run them, e.g. {@code run check --expensive}; a skipped
 *                            expensive check reads {@code expensive; } followed by it
 * @param changeSinceLoad     whether the data is still as loaded, asked in the checks' snapshot
 */
public record CheckScope(boolean includeExpensive, String howToRunExpensive, ChangeSinceLoad changeSinceLoad) {

    /**
     * Finds whether the data has changed since the load in a way that breaks the checks valid only on
     * loaded data. It is asked inside the checks' snapshot, so its answer is about the data they see; at
     * most once per run, and only when such a check is reached.
     */
    @FunctionalInterface
    public interface ChangeSinceLoad {

        /**
         * Empty while the data is as loaded; else why the checks valid only on loaded data no longer apply,
         * which becomes their skip detail ({@code a Delivery has run since the load ...}).
         */
        Optional<String> find(Connection snapshot) throws SQLException;
    }

    /** Every check runs: for tables with neither expensive checks nor checks valid only on loaded data. */
    public static CheckScope all() {
        return new CheckScope(true, "", snapshot -> Optional.empty());
    }
}

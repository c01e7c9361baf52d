package dev.gauntlet.sql.cli;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@link SqlTables} the generic {@code init} creates and loads: in one transaction, refusing when something is loaded
 * unless told {@code --drop}, so a failed or repeated init leaves nothing half-written and loses nothing.
 *
 * @param <L> what is loaded
 */
public interface SqlSchema<L> extends SqlTables<L> {

    /** The options of {@code init} (and of {@code run --init}): an object with picocli options, or null. */
    default Object loadOptions() {
        return null;
    }

    /**
     * Creates and loads the tables as {@link #loadOptions} say, on {@code c} (auto-commit off: the caller commits,
     * so a failed load leaves nothing half-written); throws a {@code BadInputException} for bad options.
     */
    L load(Connection c) throws SQLException;
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.result.Check;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The tables a workload keeps, as the generic {@code check} and {@code drop} commands see them: found ({@link #loaded}),
 * described, checked and dropped. A workload whose {@code init} is generic too is a {@link SqlSchema}; one whose
 * {@code run} is generic is a {@link SqlWorkload}.
 *
 * <p>Options a command takes are picocli-annotated objects the definition hands out ({@link #checkOptions} here):
 * each becomes a mixin of its command, and the definition reads their fields when it works.
 *
 * @param <L> what is loaded, read from the data itself (its scale, its variant)
 */
public interface SqlTables<L> {

    /** The short name: results, directories and the embedded database are named by it, e.g. {@code kv}. */
    String name();

    /** What its tables are called in messages, e.g. {@code the kv table}. */
    String tables();

    /**
     * What {@code command} ({@code init}, {@code run}, {@code check}, {@code drop}) does, for its --help: paragraphs
     * parted by {@code %n}, the first of them also the line in the list of commands.
     */
    default String description(String command) {
        return switch (command) {
            case "init" -> "Creates " + tables() + " and loads it; --drop replaces what is loaded.";
            case "run" -> "Runs the " + name() + " workload, once or as an experiment, then checks the data.";
            case "check" -> "Checks " + tables() + " in one read-only snapshot. Exit 0 when all pass, 1 when one fails.";
            case "drop" -> "Drops " + tables() + ".";
            default -> "";
        };
    }

    /** Example command lines of {@code command}, each with a comment, for its --help. */
    default List<String> examples(String command) {
        return List.of();
    }

    /** The workload's own options of {@code check}, or null. */
    default Object checkOptions() {
        return null;
    }

    /** What is loaded, or null when nothing is. */
    L loaded(Connection c) throws SQLException;

    /** What is loaded, for a reader: {@code 10,000 keys of 100 bytes}. */
    String describe(L loaded);

    void drop(Connection c) throws SQLException;

    /**
     * What must hold of the data after any number of runs, checked in one read-only snapshot; throws a
     * {@code BadInputException} for bad check options.
     */
    List<Check> checks(Connection c, L loaded) throws SQLException;

    /**
     * The checks the ledger a run left in {@code runDirectory} allows after the run ({@code check --ledger DIR}): that
     * what the driver heard commit is in the database, for a run whose driver died before it could check, or to check
     * again later. Null when the workload keeps no ledger; throws a {@code BadInputException} when the directory holds
     * none of its ledgers.
     */
    default List<Check> ledgerChecks(Connection c, L loaded, java.nio.file.Path runDirectory) throws SQLException {
        return null;
    }

    /** What {@code check} calls its checks in the summary line and the failure line: {@code kv checks}. */
    default String checkName(L loaded) {
        return name() + " checks";
    }
}

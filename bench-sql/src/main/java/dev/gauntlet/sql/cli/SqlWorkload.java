package dev.gauntlet.sql.cli;

import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * One definition of a SQL workload (model: cockroach {@code workload}'s generator and its hooks): its name, its schema
 * (create and load, what is loaded, drop), the workload a run's cell runs, its checks and its finishing work. The
 * generic {@code init}, {@code run}, {@code check} and {@code drop} commands of a {@link SqlWorkloadCommand} do the
 * rest the same way for every workload; a module adds only the options and commands that are its own.
 *
 * <p>Options a workload's commands take are picocli-annotated objects it hands out ({@link #loadOptions},
 * {@link #runOptions}, {@link #checkOptions}): each becomes a mixin of its command, and the definition reads their
 * fields when it loads, runs or checks.
 *
 * @param <L> what is loaded, read from the data itself (its scale)
 * @param <P> what a run works on: what is loaded and anything read once before the runs (a ledger's start)
 */
public interface SqlWorkload<L, P> {

    /** The short name: results, directories and the embedded database are named by it, e.g. {@code kv}. */
    String name();

    /** What its tables are called in messages, e.g. {@code the kv table}. */
    String tables();

    /** What {@code command} ({@code init}, {@code run}, {@code check}, {@code drop}) does, for its --help. */
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

    /** The options of {@code init} (and of {@code run --init}): an object with picocli options, or null. */
    default Object loadOptions() {
        return null;
    }

    /** The workload's own options of {@code run}, or null. */
    default Object runOptions() {
        return null;
    }

    /** The workload's own options of {@code check}, or null. */
    default Object checkOptions() {
        return null;
    }

    /** What is loaded, or null when nothing is. */
    L loaded(Connection c) throws SQLException;

    /**
     * Creates and loads the tables as {@link #loadOptions} say, on {@code c} (auto-commit off: the caller commits,
     * so a failed load leaves nothing half-written); throws a {@code BadInputException} for bad options.
     */
    L load(Connection c) throws SQLException;

    /** What is loaded, for a reader: {@code 10,000 keys of 100 bytes}. */
    String describe(L loaded);

    void drop(Connection c) throws SQLException;

    /** What must hold of the data after any number of runs, checked in one read-only snapshot. */
    List<Check> checks(Connection c, L loaded) throws SQLException;

    /** Before the runs: checks the run options (a {@code BadInputException} refuses them) and reads what runs need. */
    P prepare(Database db, Connection c, L loaded) throws SQLException;

    /** The workload a run of {@code cell} runs. */
    Workload<Connection> workload(P prepared, Cell cell);

    /** The workload's parameters, recorded in each result. */
    default Map<String, ?> parameters(P prepared) {
        return Map.of();
    }

    /** Metrics and checks added to a measured result (it is on disk already); {@code c} is an admin connection. */
    RunResult finish(Connection c, P prepared, RunResult measured) throws SQLException;
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.sql.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * One definition of a SQL workload (model: cockroach {@code workload}'s generator and its hooks): its schema (a
 * {@link SqlSchema}: create and load, what is loaded, checks, drop), the workload a run's cell runs and its finishing
 * work. The generic {@code init}, {@code run}, {@code check} and {@code drop} commands of a {@link SqlWorkloadCommand}
 * do the rest the same way for every workload; a module adds only the options and commands that are its own.
 *
 * @param <L> what is loaded, read from the data itself (its scale)
 * @param <P> what a run works on: what is loaded and anything read once before the runs (a ledger's start)
 */
public interface SqlWorkload<L, P> extends SqlSchema<L> {

    /** The workload's own options of {@code run}, or null. */
    default Object runOptions() {
        return null;
    }

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

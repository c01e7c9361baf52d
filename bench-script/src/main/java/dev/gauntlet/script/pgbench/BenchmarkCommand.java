package dev.gauntlet.script.pgbench;

import java.io.PrintWriter;

/**
 * {@code bench-script run} as the drop-in calls it (given by the command that holds both, so this package needs
 * nothing above it): run's arguments, where pgbench's own lines go, where Gauntlet's one-line failures go.
 */
@FunctionalInterface
public interface BenchmarkCommand {

    /**
     * How the run ended.
     *
     * @param exitCode       Gauntlet's exit code (0, 1 a check or the run failed, 2 bad input, 3 internal)
     * @param clientsAborted clients that ended on an error, said in pgbench's lines
     */
    record Ended(int exitCode, int clientsAborted) {
    }

    Ended run(String[] arguments, PgbenchConsole console, PrintWriter failures);
}

package dev.gauntlet.queue;

import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import dev.gauntlet.sql.Rendezvous;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What differs between PostgreSQL as a pub/sub log and as a work queue: the tables, the workload, how far behind
 * the readers are, and how delivery is verified. Everything else (options, roles, figures, drain, the search for
 * the highest sustained rate) is the command's, the same for both. A mode holds the ledger of the current run.
 */
interface Mode {

    /** {@code pubsub} or {@code queue}, as {@code --mode} takes it. */
    String name();

    /** Drops any existing tables and creates empty ones: every run starts from nothing (with --worker, once, by worker 0). */
    void createTables(Connection c) throws SQLException;

    /**
     * A new ledger for the run about to start, its files in {@code runDirectory} (the last run's ledger closed, its
     * files left in its own directory).
     */
    void openLedger(Path runDirectory);

    /** The run's workload, recording into the ledger {@link #openLedger} made. */
    Workload<Connection> workload();

    /** How many reader clients the run has (in this process). */
    int readers();

    /** The read operation of each group, by the suffix its figures carry ({@code G1}...); one entry, "", for a queue. */
    Map<String, String> readOperations();

    /** The messages each group still has to read, by group ({@code g1}... or {@code queue}). */
    Map<String, Long> backlog(Connection c) throws SQLException;

    /**
     * Delivery verified from the ledger against the tables; empty when another process of a split run verifies it.
     *
     * @param split where the processes of a run split with {@code --worker} meet (worker 0 of 1 for a whole run)
     */
    Optional<DeliveryChecks.Delivery> verify(Connection c, Rendezvous split) throws SQLException;

    /** The tables whose sizes, dead tuples and vacuum runs are watched, as LIKE patterns. */
    List<String> tables();

    /** What the result records about the mode beyond the shared options. */
    Map<String, Object> parameters();
}

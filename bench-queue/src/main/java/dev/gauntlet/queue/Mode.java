package dev.gauntlet.queue;

import dev.gauntlet.core.run.Workload;
import dev.gauntlet.queue.checks.DeliveryChecks;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * What differs between PostgreSQL as a pub/sub log and as a work queue: the tables, the workload, how far behind
 * the readers are, and how delivery is verified. Everything else (options, roles, figures, drain, the search for
 * the highest sustained rate) is the command's, the same for both. A mode holds the ledger of the current run.
 */
interface Mode {

    /** {@code pubsub} or {@code queue}, as {@code --mode} takes it. */
    String name();

    /** Drops any existing tables and creates empty ones, with a new ledger: every run starts from nothing. */
    void fresh(Connection c) throws SQLException;

    /** The run's workload, recording into the ledger {@link #fresh} made. */
    Workload<Connection> workload();

    /** How many reader clients the run has. */
    int readers();

    /** The read operation of each group, by the suffix its figures carry ({@code G1}...); one entry, "", for a queue. */
    Map<String, String> readOperations();

    /** The messages each group still has to read, by group ({@code g1}... or {@code queue}). */
    Map<String, Long> backlog(Connection c) throws SQLException;

    /** Delivery verified from the ledger against the tables. */
    DeliveryChecks.Delivery verify(Connection c) throws SQLException;

    /** The tables whose sizes, dead tuples and vacuum runs are watched, as LIKE patterns. */
    List<String> tables();

    /** What the result records about the mode beyond the shared options. */
    Map<String, Object> parameters();
}

package dev.gauntlet.sql.cli;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * How a workload's priming runs apart from its measured run ({@link SqlBenchmark#primeApart}): what the run starts
 * from is kept before the priming and put back after it, so the priming's writes are gone when the measured run
 * begins.
 *
 * @param <P> the workload's prepared state
 */
public interface PrimingApart<P> {

    /** Before the priming (whose workload is made after this): keep what the run starts from. */
    void before(P prepared) throws SQLException;

    /**
     * After the priming, on one of its connections (auto-commit off: commit), before the measured run's workload is
     * made: put back what {@link #before} kept.
     */
    void after(P prepared, Connection c) throws SQLException;

    /**
     * After {@link #after}, on each session the measured run will take: leave it as the workload's clients leave it
     * between two passes of their script. A priming ends its clients wherever they are, and what a session keeps from
     * the client before (bench-trainevents: the order of its statement cache) then differs from anything the
     * workload's compiled code saw. Does nothing by default.
     */
    default void settle(P prepared, Connection session) throws SQLException {
    }
}

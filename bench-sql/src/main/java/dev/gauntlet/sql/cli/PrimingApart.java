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
}

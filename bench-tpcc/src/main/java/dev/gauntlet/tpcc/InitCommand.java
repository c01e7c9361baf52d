package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.tpcc.schema.Loader;
import dev.gauntlet.tpcc.schema.Procedures;
import dev.gauntlet.tpcc.schema.Schema;
import dev.gauntlet.tpcc.workload.Dialect;
import dev.gauntlet.tpcc.workload.TransactionMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-tpcc init}: schema and initial population. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Creates the TPC-C schema and loads warehouses 1..N (COPY on PostgreSQL, multi-row INSERT on CockroachDB).",
                "Rerunning finishes a partial load and adds missing warehouses; loaded ones are kept."},
        footer = {"", "Examples:",
                "  bench-tpcc init                                   # 2 warehouses into the embedded PostgreSQL",
                "  bench-tpcc init --warehouses 10 --url jdbc:postgresql://host:5432/db --user bench",
                "  bench-tpcc init --warehouses 4 --drop --seed 42   # reload from scratch, data from a fixed seed",
                "  bench-tpcc init --warehouses 4 --mode procedures  # and the transactions as PL/pgSQL functions"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--warehouses", paramLabel = "N", defaultValue = "2",
            description = "Warehouses to load; each is about 100 MB on disk (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--load-threads", paramLabel = "N",
            description = "Warehouses loaded in parallel, one connection each (default: the number of CPUs).")
    Integer loadThreads;

    @Option(names = "--drop", description = "Drop the TPC-C tables first and load from scratch.")
    boolean drop;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the generated data (default: random).")
    Long seed;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "statements",
            description = "procedures: also install the five transactions as PL/pgSQL functions, for run --mode "
                    + "procedures (default: ${DEFAULT-VALUE}, nothing beyond the tables).")
    String mode;

    @Override
    public Integer call() {
        if (warehouses < 1) {
            throw new BadInputException("--warehouses must be at least 1 (got " + warehouses + ")");
        }
        int threads = loadThreads != null ? loadThreads : Runtime.getRuntime().availableProcessors();
        if (threads < 1) {
            throw new BadInputException("--load-threads must be at least 1 (got " + threads + ")");
        }
        TransactionMode m;
        try {
            m = TransactionMode.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--" + e.getMessage(), e);
        }
        try (Database db = connection.open(TpccDatabase.NAME, System.out)) {
            if (m == TransactionMode.PROCEDURES && Dialect.of(db) == Dialect.COCKROACH) {
                throw new BadInputException(COCKROACH_STATEMENTS_ONLY);
            }
            load(db, warehouses, threads, drop, seed != null ? seed : System.nanoTime());
            if (m == TransactionMode.PROCEDURES) {
                installProcedures(db, Dialect.of(db), true);
            }
        }
        return ExitCode.OK;
    }

    static final String COCKROACH_STATEMENTS_ONLY = "--mode procedures needs PL/pgSQL functions; CockroachDB runs "
            + "the statements mode only";

    /**
     * Installs the procedures mode's functions: always when {@code force}, else only when missing or out of date.
     * Says so on the console when it installs.
     */
    static void installProcedures(Database db, Dialect dialect, boolean force) {
        if (dialect == Dialect.COCKROACH) {
            throw new BadInputException(COCKROACH_STATEMENTS_ONLY);
        }
        try (Connection c = db.settings().connectForAdmin()) {
            if (force) {
                Procedures.install(c);
            } else if (!Procedures.ensure(c)) {
                return;
            }
            System.out.println("Installed the TPC-C procedures (version " + Procedures.VERSION + ").");
        } catch (SQLException e) {
            throw new RunFailedException("cannot install the TPC-C procedures: " + SqlStates.message(e), e);
        }
    }

    static Loader.Outcome load(Database db, int warehouses, int threads, boolean drop, long seed) {
        try {
            if (drop) {
                try (Connection c = db.settings().connectForAdmin()) {
                    Schema.drop(c);
                }
                System.out.println("Dropped the TPC-C tables.");
            }
            return new Loader(db.settings(), Dialect.of(db), threads, seed, System.out).load(warehouses);
        } catch (SQLException e) {
            throw new RunFailedException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("load interrupted; run init again to finish it", e);
        }
    }
}

package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.tpcc.schema.LoadLock;
import dev.gauntlet.tpcc.schema.LoadPlan;
import dev.gauntlet.tpcc.schema.LoadRecord;
import dev.gauntlet.tpcc.schema.Loader;
import dev.gauntlet.tpcc.schema.Procedures;
import dev.gauntlet.tpcc.schema.Schema;
import dev.gauntlet.tpcc.workload.Dialect;
import dev.gauntlet.tpcc.workload.TransactionMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-tpcc init}: schema and initial population. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Creates the TPC-C schema and loads warehouses 1..N (COPY on PostgreSQL, multi-row INSERT on CockroachDB).",
                "The load records what it sets out to do before it starts and that it finished after keys, indexes and "
                        + "statistics, so an interrupted one (Ctrl-C, kill -9, a lost connection) is never taken for a "
                        + "complete one: run, check and init refuse it in one line until 'init --resume' finishes it "
                        + "(only what is missing is loaded) or 'init --drop' starts over.",
                "On a complete load, init with more --warehouses adds the missing ones; loaded ones are kept."},
        footer = {"", "Examples:",
                "  bench-tpcc init                                   # 2 warehouses into the embedded PostgreSQL",
                "  bench-tpcc init --warehouses 10 --url jdbc:postgresql://host:5432/db --user bench",
                "  bench-tpcc init --resume --url jdbc:postgresql://host:5432/db --user bench   # finish an interrupted one",
                "  bench-tpcc init --warehouses 100 --or-resume   # load, or finish the interrupted load (a retried job)",
                "  bench-tpcc init --warehouses 4 --drop --seed 42   # reload from scratch, data from a fixed seed",
                "  bench-tpcc init --warehouses 4 --mode procedures  # and the transactions as PL/pgSQL functions"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Spec
    CommandSpec spec;

    @Option(names = "--warehouses", paramLabel = "N", defaultValue = "2",
            description = "Warehouses to load; each is about 100 MB on disk (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--load-threads", paramLabel = "N",
            description = "Warehouses loaded in parallel, one connection each (default: the number of CPUs).")
    Integer loadThreads;

    @Option(names = "--drop", description = "Drop the TPC-C tables first and load from scratch.")
    boolean drop;

    @Option(names = "--resume", description = "Finish an interrupted load: load only the warehouses (and the item "
            + "table) it did not finish, with its own warehouse count and seed, then keys, indexes and statistics; "
            + "finished warehouses are kept as they are. Not with --drop.")
    boolean resume;

    @Option(names = "--or-resume", description = "Load, or finish an interrupted load found there as --resume does "
            + "(a job retried after its pod was killed mid-load): a complete load is left as plain init leaves it.")
    boolean orResume;

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
        if ((resume || orResume) && drop) {
            throw new BadInputException("--" + (resume ? "resume" : "or-resume") + " finishes the load that is there "
                    + "and --drop starts over; give one of them");
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
            Integer given = spec.commandLine().getParseResult().hasMatchedOption("--warehouses") ? warehouses : null;
            if (resume) {
                resume(db, threads, given, seed, "--resume");
            } else {
                load(db, warehouses, threads, drop, seed != null ? seed : System.nanoTime(),
                        orResume ? () -> resumeHeld(db, threads, given, seed, "--or-resume") : null);
            }
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

    /**
     * Loads warehouses 1..{@code warehouses} ({@code drop}: from scratch), or adds the missing ones to a complete load;
     * refuses a partial load in one line ({@link PartialLoad}), which {@code init --resume} finishes.
     */
    static Loader.Outcome load(Database db, int warehouses, int threads, boolean drop, long seed) {
        return load(db, warehouses, threads, drop, seed, null);
    }

    /** The same, a partial load finished by {@code ifPartial} (under the same lock) where it is not null. */
    private static Loader.Outcome load(Database db, int warehouses, int threads, boolean drop, long seed,
                                       LoadWork ifPartial) {
        return underLock(db, () -> {
            if (drop) {
                try (Connection c = db.settings().connectForAdmin()) {
                    Schema.drop(c);
                }
                System.out.println("Dropped the TPC-C tables.");
            } else {
                try (Connection c = db.settings().connectForAdmin()) {
                    LoadRecord there = LoadRecord.find(c);
                    if (there != null && there.partial()) {
                        if (ifPartial == null) {
                            throw PartialLoad.refusal(there, false, db.settings().url());
                        }
                        return ifPartial.run();
                    }
                }
            }
            return new Loader(db.settings(), Dialect.of(db), threads, seed, System.out).load(warehouses);
        });
    }

    /**
     * {@code init --resume}: loads what an interrupted load did not finish, with its plan's warehouses and seed
     * ({@code warehouses} and {@code seed}, when given, must agree); for a load from before plans were recorded, up to
     * the highest finished warehouse or {@code warehouses}, if more.
     */
    static void resume(Database db, int threads, Integer warehouses, Long seed, String option) {
        underLock(db, () -> resumeHeld(db, threads, warehouses, seed, option));
    }

    /** {@link #resume}'s work, the load's lock held; {@code option} is what the user typed, for the refusals. */
    private static Loader.Outcome resumeHeld(Database db, int threads, Integer warehouses, Long seed, String option)
            throws SQLException, InterruptedException {
        String at = Redaction.url(db.settings().url());
        LoadRecord there;
        try (Connection c = db.settings().connectForAdmin()) {
            there = LoadRecord.find(c);
        }
        if (there == null || there.empty()) {
            throw new BadInputException("nothing to resume at " + at + ": no TPC-C load was started there; run "
                    + "'bench-tpcc init' to load one");
        }
        if (there.complete()) {
            System.out.printf(Locale.ROOT, "Nothing to resume: the load of %s at %s is complete; nothing is "
                    + "missing.%n", LoadRecord.warehouses(there.warehouses()), at);
            return null;
        }
        LoadPlan plan = there.plan();
        if (plan != null && warehouses != null && warehouses != plan.warehouses()) {
            throw new BadInputException(option + " finishes the interrupted load of "
                    + LoadRecord.warehouses(plan.warehouses()) + "; leave out --warehouses " + warehouses
                    + " (once it is complete, init --warehouses N adds more)");
        }
        if (plan != null && seed != null && seed != plan.seed()) {
            throw new BadInputException(option + " loads what is missing with the interrupted load's seed, "
                    + plan.seed() + "; leave out --seed " + seed);
        }
        int target = plan != null ? plan.warehouses()
                : Math.max(there.planned(), warehouses != null ? warehouses : 0);
        System.out.println(resuming(there, target, at));
        long s = plan != null ? plan.seed() : seed != null ? seed : System.nanoTime();
        return new Loader(db.settings(), Dialect.of(db), threads, s, System.out).load(target);
    }

    /** {@code Resuming a load of 100 warehouses at URL: 38 missing (63..100), then keys, indexes and statistics.} */
    private static String resuming(LoadRecord there, int target, String at) {
        List<Integer> missing = there.missing(target);
        return "Resuming a load of " + LoadRecord.warehouses(target) + " at " + at
                + (there.plan() != null ? "" : " (from before loads recorded their plan: up to the highest finished "
                        + "warehouse or --warehouses)")
                + ": " + (missing.isEmpty() ? "no warehouse missing" : missing.size() + " missing ("
                        + LoadRecord.ranges(missing) + ")")
                + (there.itemsLoaded() ? "" : " and the item table") + ", then keys, indexes and statistics.";
    }

    /** A load's work, done holding the {@link LoadLock}; another load under way is refused in one line. */
    private interface LoadWork {
        Loader.Outcome run() throws SQLException, InterruptedException;
    }

    private static Loader.Outcome underLock(Database db, LoadWork work) {
        try (LoadLock lock = LoadLock.take(db.settings(), Dialect.of(db))) {
            if (lock == null) {
                try (Connection c = db.settings().connectForAdmin()) {
                    throw PartialLoad.refusal(LoadRecord.find(c), true, db.settings().url());
                }
            }
            return work.run();
        } catch (SQLException e) {
            throw new RunFailedException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("load interrupted; run 'init --resume' to finish it", e);
        }
    }
}

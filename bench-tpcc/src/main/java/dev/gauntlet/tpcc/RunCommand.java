package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.DurationConverter;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.NameList;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.experiment.Dimension;
import dev.gauntlet.core.experiment.Experiment;
import dev.gauntlet.core.experiment.Level;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.DatabaseUnavailableException;
import dev.gauntlet.sql.Rendezvous;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.SqlBenchmark;
import dev.gauntlet.tpcc.checks.ConsistencyChecks;
import dev.gauntlet.tpcc.checks.NothingLost;
import dev.gauntlet.tpcc.figures.MixAudit;
import dev.gauntlet.tpcc.figures.ServerNewOrders;
import dev.gauntlet.tpcc.figures.TpccFigures;
import dev.gauntlet.tpcc.schema.Growth;
import dev.gauntlet.tpcc.schema.LoadRecord;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import dev.gauntlet.tpcc.workload.Dialect;
import dev.gauntlet.tpcc.workload.Isolation;
import dev.gauntlet.tpcc.workload.NURandConstants;
import dev.gauntlet.tpcc.workload.Scale;
import dev.gauntlet.tpcc.workload.TpccRandom;
import dev.gauntlet.tpcc.workload.TpccWorkload;
import dev.gauntlet.tpcc.workload.TransactionMode;
import dev.gauntlet.tpcc.workload.TransactionType;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-tpcc run}: the workload, once or as an A/B experiment over server settings. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the TPC-C-derived mix against loaded warehouses and reports tpmC (committed New-Orders "
                + "per minute), efficiency (with --wait), per-transaction latency and audit checks.",
                "Without --wait, --clients terminals run back to back (throughput test; no efficiency figure). "
                        + "With --wait, 10 terminals per active warehouse key and think as the spec says, and "
                        + "efficiency is tpmC over 12.605 per active warehouse, the most the 23-card deck allows.",
                "With --variant or --experiment, each variant runs in turn with identical parameters and a "
                        + "comparison report (Metric | A | B | Change | Winner) is written.",
                "--find-max-rate (without --wait) searches for the most transactions a second that meet --slo, or "
                        + "without it the specification's 90th-percentile limits (5.2.5.3: p90(newOrder), "
                        + "p90(payment), p90(orderStatus), p90(delivery) <= 5s, p90(stockLevel) <= 20s), which are "
                        + "then the steps' objectives rather than checks."},
        footer = {"", "Examples:",
                "  bench-tpcc run --warehouses 4 --clients 8 --duration 60s",
                "  bench-tpcc run --wait --active-warehouses 2 --duration 10m --warmup 1m",
                "  bench-tpcc run --warehouses 4 --clients 16 --duration 30s --find-max-rate --slo 'p99(newOrder) <= 50ms'",
                "  bench-tpcc run --experiment experiments/postgres-synchronous-commit.exp --duration 60s",
                "  bench-tpcc run --mode statements,procedures --repeat 3 --warehouses 4 --clients 8 --duration 60s",
                "  bench-tpcc run --variant base= --variant group='ALTER SYSTEM SET commit_delay = 1000; SELECT pg_reload_conf()'"})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Spec
    CommandSpec spec;

    @Option(names = "--warehouses", paramLabel = "N",
            description = "Warehouses in the data (default: all loaded; with --init: 2).")
    Integer warehouses;

    @Option(names = "--active-warehouses", paramLabel = "N",
            description = "Warehouses that have terminals; remote order lines and payments go to these too, so with 1 "
                    + "nothing is remote (default: --warehouses).")
    Integer activeWarehouses;

    @Option(names = "--wait",
            description = "Keying and think times on: 10 terminals per active warehouse (--clients is then not allowed).")
    boolean waits;

    @Option(names = "--find-max-warehouses",
            description = {"With --wait: search for the most active warehouses that meet the specification's "
                    + "conditions, TPC-C's own way of stating capacity: efficiency at least 85%% and 5.2.5.3's "
                    + "90th-percentile limits (plus any --slo). The loaded warehouses are the most it tries; steps of "
                    + "--duration from half of them, up by 15%% of them until one misses, then halving the gap to "
                    + "--rate-resolution (at least one warehouse), then a confirmation run. search.md names the "
                    + "warehouses and tpmC. Give each step minutes: efficiency is 12 New-Orders a minute a warehouse."})
    boolean findMaxWarehouses;

    @Option(names = "--isolation", paramLabel = "LEVEL", converter = IsolationConverter.class,
            description = {"read-committed | repeatable-read | serializable.",
                    "Default: read-committed on PostgreSQL (every write is an atomic update of the row it reads, "
                            + "so the checks hold without serialization failures), serializable on CockroachDB."})
    Isolation isolation;

    @Option(names = "--mode", paramLabel = "MODE", split = ",", defaultValue = "statements",
            description = {"statements: each transaction's own statements from the driver (the default).",
                    "procedures: each transaction as one call of its PL/pgSQL function (installed when missing or "
                            + "out of date), as HammerDB runs TPC-C; PostgreSQL only.",
                    "statements,procedures: both, as an experiment with a comparison (with --repeat N, alternating)."})
    List<String> modeArgs = new ArrayList<>();

    @Option(names = "--init", description = "Load --warehouses first if they are not loaded yet (a partial load, "
            + "one that was interrupted, is refused: init --resume finishes it). With --worker, worker 0 loads and the "
            + "others wait for its load.")
    boolean init;

    @Option(names = "--load-timeout", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1h",
            description = "With --worker: how long a worker waits for the load to be recorded as complete "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration loadTimeout;

    @Option(names = "--variant", paramLabel = "NAME=SQL",
            description = "A variant of an A/B experiment: its name and the SQL (';'-separated, auto-commit) that sets the server up. Repeat for each variant.")
    List<String> variantArgs = new ArrayList<>();

    @Mixin
    ExperimentOptions experimentOptions;

    @Option(names = "--reload",
            description = "Experiments: drop and reload the data before each run, so every run starts from identical data.")
    boolean reload;

    @Option(names = "--check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the consistency checks after the run (default: on; --no-check skips them).")
    boolean check;

    @Option(names = "--expensive-checks", description = "Also run the expensive consistency checks 3.3.2.6, .10 and .12.")
    boolean expensiveChecks;

    /** The parameter holding the orders earlier runs added since the load ({@link Growth}). */
    static final String ORDERS_ADDED = "ordersAddedSinceLoad";

    /** The dimension of an experiment over --mode. */
    static final String MODE = "mode";

    /**
     * Everything fixed before the first run, shared by every variant; the active warehouses change only from step to
     * step of {@code --find-max-warehouses}.
     */
    record Setup(Database db, Dialect dialect, int warehouses, AtomicInteger activeNow, Isolation isolation,
                 NURandConstants constants, CommittedOrders orders, WorkerShare share, AtomicReference<Growth> growth) {

        int active() {
            return activeNow.get();
        }

        /** This process's home warehouses among the active ones. */
        WorkerShare.Range homes() {
            return share.part(active());
        }
    }

    @Override
    public Integer call() {
        validate();
        SqlBenchmark<Setup> benchmark = SqlBenchmark.of(spec, "tpcc", connection, options, this::setup)
                .database(TpccDatabase.NAME)
                .experiments(experimentOptions, variants(), reload ? "The data was reloaded before each run."
                        : "The runs followed one another on the same data (not reloaded): later runs meet more rows "
                        + "(use --reload for identical data).")
                .plan(this::terminals)
                .isolation(s -> s.isolation().jdbcLevel())
                .workload((s, cell) -> new TpccWorkload(s.active(), s.constants(), waits, mode(cell), s.orders(),
                        s.homes().from() + 1, s.homes().size()))
                .parameters((s, cell) -> parameters(s, mode(cell)))
                .probes(s -> List.of(new ServerNewOrders(s.db().settings())))
                .beforeEachRun((s, cell, dir) -> {
                    s.orders().restartIn(dir);
                    if (reload) {
                        InitCommand.load(s.db(), s.warehouses(), Runtime.getRuntime().availableProcessors(), true,
                                options.seed());
                    }
                    s.growth().set(growth(s));
                })
                .finish(this::finish)
                .defaultObjectives(TransactionType.responseTimeObjectives());
        if (findMaxWarehouses) {
            benchmark.capacitySearch(new WarehousePacing(this::terminals));
        }
        return benchmark.call();
    }

    private void validate() {
        if (warehouses != null && warehouses < 1) {
            throw new BadInputException("--warehouses must be at least 1 (got " + warehouses + ")");
        }
        if (activeWarehouses != null && activeWarehouses < 1) {
            throw new BadInputException("--active-warehouses must be at least 1 (got " + activeWarehouses + ")");
        }
        if (findMaxWarehouses && (!waits || activeWarehouses != null || options.capacity().findMaxRate())) {
            throw new BadInputException("--find-max-warehouses runs with --wait and sets the active warehouses itself: "
                    + "give --wait, and leave out --active-warehouses and --find-max-rate");
        }
        if (waits && options.capacity().findMaxRate()) {
            throw new BadInputException("--find-max-rate paces transactions open loop, without --wait: with --wait the "
                    + "terminals key and think as the specification says, and capacity is stated in warehouses");
        }
        if (waits && spec.commandLine().getParseResult().hasMatchedOption("--clients")) {
            throw new BadInputException("--wait runs 10 terminals per active warehouse; leave out --clients "
                    + "(use --active-warehouses to change the number of terminals)");
        }
        modes();
        if (reload && variantArgs.isEmpty() && modeArgs.size() < 2 && !experimentOptions.given()) {
            throw new BadInputException("--reload only applies to experiments (--variant or --experiment)");
        }
    }

    private List<TransactionMode> modes() {
        return NameList.parse("--mode", modeArgs, TransactionMode::parse);
    }

    private TransactionMode mode(Cell cell) {
        return cell.level(MODE).map(l -> TransactionMode.parse(l.name())).orElse(modes().get(0));
    }

    /** The experiment's dimensions: --variant's, and --mode's when it names both modes. */
    private List<Dimension> variants() {
        List<Dimension> dimensions = new ArrayList<>();
        List<TransactionMode> modes = modes();
        if (modes.size() > 1) {
            dimensions.add(Dimension.of(MODE, modes.stream().map(TransactionMode::label).toList()));
        }
        if (variantArgs.isEmpty()) {
            return dimensions;
        }
        if (variantArgs.size() < 2) {
            throw new BadInputException("an experiment needs at least two --variant options (got one)");
        }
        try {
            dimensions.add(new Dimension(Experiment.VARIANT, variantArgs.stream().map(Level::parse).toList()));
            return dimensions;
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--variant " + e.getMessage(), e);
        }
    }

    private Setup setup(Database db, RunPlan plan) {
        Dialect dialect = Dialect.of(db);
        WorkerShare share = options.share();
        if (init && share.index() == 0) {
            InitCommand.load(db, warehouses != null ? warehouses : 2, Runtime.getRuntime().availableProcessors(),
                    false, options.seed());
        } else if (share.count() > 1) {
            awaitLoad(db, warehouses != null ? warehouses : 1, share);
        }
        LoadRecord load = loadRecord(db);
        int loaded = load.warehouses();
        if (loaded == 0) {
            throw new BadInputException("no warehouse is fully loaded at " + Redaction.url(db.settings().url())
                    + "; run init first");
        }
        int w = warehouses != null ? warehouses : loaded;
        if (w > loaded) {
            throw new BadInputException("--warehouses " + w + " but only " + loaded
                    + " are loaded; run init --warehouses " + w + " (or run --init)");
        }
        int active = activeWarehouses != null ? activeWarehouses : w;
        if (active > w) {
            throw new BadInputException("--active-warehouses " + active + " is more than the " + w + " warehouses");
        }
        if (modes().contains(TransactionMode.PROCEDURES)) {
            InitCommand.installProcedures(db, dialect, false);
        }
        Isolation iso = isolation != null ? isolation : dialect.defaultIsolation();
        // The run's constants come from the run's seed, the same in every driver process of it (--worker).
        NURandConstants constants = NURandConstants.forRun(new TpccRandom(options.seed()), load.lastNameConstant());
        WorkerShare.Range homes = share.part(active);
        if (homes.size() == 0) {
            throw new BadInputException("--worker " + share + " gets none of the " + active + " active warehouses: "
                    + "split a run into at most as many workers as warehouses");
        }
        return new Setup(db, dialect, w, new AtomicInteger(active), iso, constants, new CommittedOrders(), share,
                new AtomicReference<>());
    }

    /** The data's growth since its load, read before a run; said in one line when it has doubled. */
    private static Growth growth(Setup s) {
        try (Connection c = s.db().settings().connectForAdmin()) {
            Growth g = Growth.of(c, s.warehouses());
            if (g.doubled()) {
                System.out.println(g.note());
            }
            return g;
        } catch (SQLException e) {
            throw new RunFailedException("cannot read the districts' next order ids: " + SqlStates.message(e), e);
        }
    }

    /** With --wait: 10 terminals per active warehouse, keying and thinking, so they need few threads. */
    private RunPlan terminals(Setup s, RunPlan plan) {
        if (!waits) {
            return plan;
        }
        int terminals = s.homes().size() * Scale.TERMINALS_PER_WAREHOUSE;
        plan = plan.withClients(terminals);
        if (!spec.commandLine().getParseResult().hasMatchedOption("--workers")) {
            plan = plan.withWorkers(Math.min(terminals, 64));
        }
        return plan;
    }

    /**
     * One driver process of several waits for the load another makes (worker 0 with {@code --init}, or an init
     * Job): until it is complete (every planned part, keys, indexes and statistics) with at least {@code warehouses},
     * or {@code --load-timeout} passes, when a partial load there is named in the line that gives up.
     */
    private void awaitLoad(Database db, int warehouses, WorkerShare share) {
        String waiting = "worker " + share + ": waiting for the load of " + warehouses + " warehouse(s) by worker 0 "
                + "with --init or by an init job (--load-timeout " + DurationConverter.format(loadTimeout) + ")";
        try {
            Rendezvous.until(db.settings(), c -> {
                LoadRecord r = LoadRecord.find(c);
                return r != null && r.complete() && r.warehouses() >= warehouses;
            }, loadTimeout, waiting, System.out);
        } catch (DatabaseUnavailableException timedOut) {
            try (Connection c = db.settings().connectForAdmin()) {
                PartialLoad.refuse(c, LoadRecord.find(c), db.settings().url());
            } catch (BadInputException partial) {
                throw new BadInputException(timedOut.getMessage() + ": " + partial.getMessage(), timedOut);
            } catch (SQLException unreadable) {
                timedOut.addSuppressed(unreadable);
            }
            throw timedOut;
        }
    }

    /**
     * The load record; refuses, in one line, a database without the TPC-C tables and a partial load (interrupted or
     * still under way).
     */
    private static LoadRecord loadRecord(Database db) {
        try (Connection c = db.settings().connectForAdmin()) {
            LoadRecord load = LoadRecord.find(c);
            if (load == null) {
                throw new BadInputException("no TPC-C schema at " + Redaction.url(db.settings().url())
                        + "; run init first");
            }
            PartialLoad.refuse(c, load, db.settings().url());
            return load;
        } catch (SQLException e) {
            throw new RunFailedException("cannot read the TPC-C load record: " + SqlStates.message(e), e);
        }
    }

    private Map<String, Object> parameters(Setup s, TransactionMode mode) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put(MODE, mode.label());
        parameters.put("warehouses", s.warehouses());
        parameters.put("activeWarehouses", s.active());
        if (s.homes().size() < s.active()) {
            parameters.put("homeWarehouses", (s.homes().from() + 1) + "-" + s.homes().to());
        }
        parameters.put("terminals", waits ? "keying and think times" : "no wait");
        parameters.put("isolation", s.isolation().label());
        parameters.put("dialect", s.dialect().product());
        NURandConstants c = s.constants();
        parameters.put("nuRandC", c.lastName() + "/" + c.customerId() + "/" + c.itemId());
        // Drawn at each load, like a seed: a reloaded database is the same test.
        String describesThisRun = "nuRandC";
        Growth g = s.growth().get();
        if (g != null) {
            // Orders earlier runs added to the loaded data. It describes this run's data, not the test: runs one after
            // another on kept data stay one series in a history, whose change points then show what the growth does.
            parameters.put(ORDERS_ADDED, g.ordersAdded());
            describesThisRun += ", " + ORDERS_ADDED;
        }
        parameters.put(dev.gauntlet.core.result.Conditions.DRAWN, describesThisRun);
        parameters.putAll(TpccFigures.definitions(waits));
        return parameters;
    }

    private RunResult finish(Setup s, RunResult r) {
        // In a capacity search the limits are the steps' objectives (a step over them missed), not checks that fail.
        List<Check> checks = new ArrayList<>(options.capacity().findMaxRate() || findMaxWarehouses ? List.of()
                : TpccFigures.responseTimeLimits(r));
        checks.addAll(MixAudit.checks(r));
        if (check && "interrupted".equals(r.parameters().get("stopReason"))) {
            // Ctrl-C: the JVM is going down and an embedded server with it; checks would fail for that alone.
            String why = "the run was interrupted; run 'check' for the consistency checks";
            checks.add(Check.skip("3.3.2 consistency checks", why));
            checks.add(Check.skip(NothingLost.NAME, why));
        } else if (check) {
            System.out.println("Running the consistency checks" + (expensiveChecks ? " (with the expensive ones)" : "")
                    + "... (--no-check skips them)");
            if (options.share().index() == 0) {
                checks.addAll(consistency(s.db()));
            } else {
                // The conditions hold in any committed state, so one process's check of the whole database is enough.
                checks.add(Check.skip("3.3.2 consistency checks", "worker 0 of the run checks the whole database"));
            }
            checks.add(nothingLost(s));
        }
        return r.toBuilder().metrics(TpccFigures.metrics(r, s.active(), waits)).checks(checks).build();
    }

    private static Check nothingLost(Setup s) {
        try (Connection c = s.db().settings().connectForAdmin()) {
            return NothingLost.run(c, s.orders());
        } catch (SQLException e) {
            return Check.fail(NothingLost.NAME, "could not run: " + SqlStates.message(e));
        }
    }

    private List<Check> consistency(Database db) {
        try (Connection c = db.settings().connectForAdmin()) {
            return ConsistencyChecks.run(c, expensiveChecks);
        } catch (SQLException e) {
            return List.of(Check.fail("3.3.2 consistency checks", "could not run: " + SqlStates.message(e)));
        }
    }
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.Benchmark;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.OutputDirectory;
import dev.gauntlet.core.cli.Provenance;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.cli.RunSpec;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.experiment.Dimension;
import dev.gauntlet.core.experiment.Experiment;
import dev.gauntlet.core.experiment.ExperimentRunner;
import dev.gauntlet.core.prometheus.PrometheusEndpoint;
import dev.gauntlet.core.report.PairComparison;
import dev.gauntlet.core.report.RunGroup;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.result.WorkerShare;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.core.run.ProgressPrinter;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.core.search.Pacing;
import dev.gauntlet.core.search.RateSearch;
import dev.gauntlet.core.search.SearchRun;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.JdbcTarget;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.ServerSettings;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.observe.RoundTrips;
import dev.gauntlet.sql.observe.ServerCpu;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A SQL workload's {@code run} command, from parsed options to exit code. The workload says what is its own; this
 * does the rest the same way for every workload:
 *
 * <ol>
 *   <li>options are checked (the plan, the experiment, the output directory) before anything is opened;</li>
 *   <li>the database is opened ({@code --url}, else the embedded PostgreSQL) and the workload <b>prepares</b>: reads
 *       what is loaded, loads when asked, refuses with a {@link BadInputException} when it cannot run;</li>
 *   <li>one run, or with {@code --experiment}/dimension options every cell of the matrix in turn (its SQL applied
 *       and read back, {@code --repeat} alternating), each with the same seed;</li>
 *   <li>each run: the workload's {@link Workload}, a {@link JdbcTarget} per {@code --pool} (or the cell's
 *       {@value #POOL} level), parameters, probes (the workload's, plus {@link RoundTrips} and, for a server on
 *       this machine, {@link ServerCpu}), then <b>finish</b> (the workload's metrics and checks) on the
 *       measured result, which is on disk first;</li>
 *   <li>exit 0, or {@link ExitCode#FAILED} when a check failed; an experiment also writes {@code comparison.md}.</li>
 * </ol>
 *
 * <pre>{@code
 * return SqlBenchmark.of(spec, "kv", connection, options, KvSetup::read)
 *         .workload((setup, cell) -> new KvWorkload(setup.keys(), readShare))
 *         .finish((setup, result) -> result.withChecks(KvChecks.run(setup)))
 *         .call();
 * }</pre>
 *
 * @param <P> what the workload prepared (the loaded scale, constants drawn for the run, the database handle)
 */
public final class SqlBenchmark<P> {

    /** The dimension whose levels ({@code direct}, {@code pooled}) choose the connection mode of a cell. */
    public static final String POOL = "pool";

    /** Reads (and, when asked, loads) what the runs need; throws {@link BadInputException} when it cannot run. */
    @FunctionalInterface
    public interface Preparation<P> {
        P prepare(Database db, RunPlan plan);
    }

    /**
     * What is done before each run, with the run's directory: its ledgers are written there as the run goes, so a
     * driver that dies leaves them to be checked.
     */
    @FunctionalInterface
    public interface BeforeRun<P> {
        void prepare(P prepared, Cell cell, Path runDirectory);
    }

    /** Something made afresh for each run from what was prepared and the run's cell ({@link #SINGLE} alone). */
    @FunctionalInterface
    public interface PerRun<P, T> {
        T make(P prepared, Cell cell);
    }

    /** The cell of a run that is not part of an experiment: no dimensions. */
    public static final Cell SINGLE = new Cell(List.of(), List.of());

    private final CommandSpec command;
    private final String workloadName;
    private final ConnectionOptions connection;
    private final RunOptions options;
    /** The live metrics endpoint of the current run ({@code --prometheus-port}), or null. */
    private PrometheusEndpoint live;
    /** What the run's notes say of the logs of servers Gauntlet started (a lab's), kept when they stop; or null. */
    private String labNote;
    private final Preparation<P> preparation;
    private PrintStream out = System.out;
    private String database;
    private BiFunction<P, RunPlan, RunPlan> plan = (p, plan) -> plan;
    private PerRun<P, Workload<Connection>> workload;
    private ToIntFunction<P> isolation = p -> JdbcTarget.DEFAULT_ISOLATION;
    private PerRun<P, Map<String, ?>> parameters = (p, c) -> Map.of();
    private Function<P, List<? extends Probe>> probes = p -> List.of();
    private BeforeRun<P> beforeEachRun = (p, c, dir) -> { };
    private BiFunction<P, RunResult, RunResult> finish = (p, r) -> r;
    private ExperimentOptions experimentOptions;
    private List<Dimension> dimensions = List.of();
    private String experimentNotes = "";
    private RateSearch<P> search;
    /** How a capacity search's steps are paced and judged beyond the objectives (default: the plan's rate). */
    private Pacing<P> pacing = Pacing.plan();
    /** The objectives a search judges by when {@code --slo} gives none; empty: it needs {@code --slo}. */
    private List<String> defaultObjectives = dev.gauntlet.core.cli.CapacityOptions.DEFAULT_OBJECTIVES;
    /** Whether the run is a capacity search without {@code --find-max-rate} ({@link #capacitySearch}). */
    private boolean searching;
    /** The run's objectives ({@code --slo}), parsed before anything connects. */
    private List<dev.gauntlet.core.objective.Objective> objectives = List.of();
    private ServerCpu serverCpu;
    private Function<PrintStream, RunListener> progress = ProgressPrinter::new;
    private BiFunction<P, List<RunGroup>, String> experimentSummary = (p, cells) -> "";
    private AdversityRun adversity;
    /** How the workload's priming runs apart and its tables are put back after it; null: the priming is in the run. */
    private PrimingApart<P> primeApart;

    private SqlBenchmark(CommandSpec command, String workloadName, ConnectionOptions connection, RunOptions options,
                         Preparation<P> preparation) {
        this.command = command;
        this.workloadName = workloadName;
        this.connection = connection;
        this.options = options;
        this.preparation = preparation;
        this.database = workloadName;
    }

    /**
     * @param command     the picocli {@code run} command (its name and arguments are stored in every result)
     * @param workload    the workload's short name: results, directories and the embedded database are named by it
     * @param preparation what happens once, after the database is open and before the first run
     */
    public static <P> SqlBenchmark<P> of(CommandSpec command, String workload, ConnectionOptions connection,
                                         RunOptions options, Preparation<P> preparation) {
        return new SqlBenchmark<>(command, workload, connection, options, preparation);
    }

    /** The embedded database's name (default: the workload's name). */
    public SqlBenchmark<P> database(String name) {
        database = name;
        return this;
    }

    /** Changes the plan {@code --clients}, {@code --rate} and the others made (roles, a client count from the data). */
    public SqlBenchmark<P> plan(BiFunction<P, RunPlan, RunPlan> change) {
        plan = change;
        return this;
    }

    public SqlBenchmark<P> workload(PerRun<P, Workload<Connection>> make) {
        workload = make;
        return this;
    }

    /**
     * The {@code Connection.TRANSACTION_*} level every session runs at; by default none is set, and the sessions run
     * at the level the server gives them (its {@code default_transaction_isolation}: postgresql.conf, ALTER DATABASE
     * or ROLE, the connection's {@code options}), which a benchmark must not change behind the user's back.
     */
    public SqlBenchmark<P> isolation(ToIntFunction<P> level) {
        isolation = level;
        return this;
    }

    /** The workload's parameters, recorded in each result after the plan's and the connection's. */
    public SqlBenchmark<P> parameters(PerRun<P, Map<String, ?>> make) {
        parameters = make;
        return this;
    }

    /**
     * Phase probes (counters read at every phase boundary, e.g. a server-side count, besides the driver's CPU) and
     * gauge probes (figures sampled every interval, e.g. {@link dev.gauntlet.sql.observe.PostgresGauges}).
     */
    public SqlBenchmark<P> probes(Function<P, List<? extends Probe>> make) {
        probes = make;
        return this;
    }

    /**
     * Work before each run, after the prepared state and (in an experiment) the cell's SQL: a fresh log, reloaded
     * data, a ledger started in the run's directory. The run's workload is made after it.
     */
    public SqlBenchmark<P> beforeEachRun(BeforeRun<P> work) {
        beforeEachRun = work;
        return this;
    }

    /**
     * The workload's tables can be kept and put back ({@code how}), so its priming runs apart: a run of its own before
     * each measured run, after which the tables are as the run would have found them, so the priming changes nothing
     * the run measures and can last until the compilers settle. Not for a --worker process (its processes keep one
     * timeline from --start-at) or a --plan run (no priming).
     */
    public SqlBenchmark<P> primeApart(PrimingApart<P> how) {
        primeApart = how;
        return this;
    }

    /** Finishing work on each measured result: the workload's figures and checks. */
    public SqlBenchmark<P> finish(BiFunction<P, RunResult, RunResult> work) {
        finish = work;
        return this;
    }

    /**
     * Experiments: {@code --experiment FILE}, or the {@code dimensions} the workload's own options gave (none given:
     * a single run unless the file is).
     *
     * @param notes what the comparison should say about how the runs followed one another
     */
    public SqlBenchmark<P> experiments(ExperimentOptions experimentOptions, List<Dimension> dimensions, String notes) {
        this.experimentOptions = experimentOptions;
        this.dimensions = List.copyOf(dimensions);
        this.experimentNotes = notes;
        return this;
    }

    /**
     * The objectives {@code --find-max-rate} judges its steps by when {@code --slo} gives none: the workload's, which
     * its run command's help names.
     */
    public SqlBenchmark<P> defaultObjectives(String... objectives) {
        defaultObjectives = List.of(objectives);
        return this;
    }

    /**
     * This run is a capacity search paced by {@code how}, not by the plan's rate as {@code --find-max-rate} alone is:
     * bench-queue's writers' throttle and consumer groups, bench-tpcc's {@code --find-max-warehouses}.
     */
    public SqlBenchmark<P> capacitySearch(Pacing<P> how) {
        pacing = how;
        searching = true;
        return this;
    }

    /** What each run prints while it goes (default: the cockroach {@code workload} progress lines). */
    public SqlBenchmark<P> progress(Function<PrintStream, RunListener> listener) {
        progress = listener;
        return this;
    }

    /**
     * The workload's own reading of an experiment's cells (a matrix table, an interpretation), put at the top of
     * {@code comparison.md} before the pairwise comparisons; empty for none.
     */
    public SqlBenchmark<P> experimentSummary(BiFunction<P, List<RunGroup>, String> summary) {
        experimentSummary = summary;
        return this;
    }

    public SqlBenchmark<P> console(PrintStream console) {
        out = console;
        return this;
    }

    /** Runs it: the exit code for picocli. */
    public int call() {
        Objects.requireNonNull(workload, "a SqlBenchmark needs a workload");
        List<Dimension> given = new java.util.ArrayList<>(dimensions);
        List<PoolMode> pools = connection.pools();
        if (pools.size() > 1) {
            given.add(Dimension.of(POOL, pools.stream().map(m -> m.name().toLowerCase(Locale.ROOT)).toList()));
        }
        if (connection.poolSize() < 1) {
            throw new BadInputException("--pool-size must be at least 1 (got " + connection.poolSize() + ")");
        }
        Experiment experiment = experimentOptions == null ? (pools.size() > 1
                ? new Experiment(workloadName + " experiment", given, List.of(), 1) : null)
                : experimentOptions.experiment(workloadName + " experiment", given);
        if (experiment != null) {
            experiment.dimensions().stream().filter(d -> d.name().equals(POOL)).flatMap(d -> d.levels().stream())
                    .forEach(l -> {
                        PoolMode mode;
                        try {
                            mode = PoolMode.parse(l.name());
                        } catch (IllegalArgumentException e) {
                            throw new BadInputException(e.getMessage(), e);
                        }
                        if (mode == PoolMode.PGBOUNCER) {
                            ConnectionOptions.requirePgBouncer();
                        }
                    });
        }
        RunPlan base = options.plan();
        objectives = options.objectives();
        if (options.capacity().findMaxRate() || searching) {
            RateSearch<P> rates = RateSearch.of(options, base, objectives, defaultObjectives, pacing, experiment != null);
            objectives = rates.objectives();
            search = rates;
        }
        options.standby();
        // A search refused these itself (RateSearch.of), naming its own option.
        if (options.startAt() != null && experiment != null) {
            throw new BadInputException("--start-at starts one run: it cannot be combined with an experiment");
        }
        if (options.planFile() != null) {
            if (experiment != null) {
                throw new BadInputException("--plan runs once: it cannot be combined with an experiment "
                        + "(--experiment, several --pool modes or the workload's dimension options)");
            }
            options.requireStartAtToSplit("the plan's phases and disruptions run on one timeline from it");
            adversity = AdversityRun.prepare(options, connection);
            objectives = java.util.stream.Stream.concat(adversity.objectives().stream(), objectives.stream()).toList();
            if (options.dryRun()) {
                adversity.dryRun(connection, out);
                return ExitCode.OK;
            }
        } else {
            options.dryRun();
        }
        Path outDir = OutputDirectory.check(options.out() != null ? options.out()
                : OutputDirectory.defaultFor(workloadName, experiment == null ? null : "experiment"));
        Integer port = options.prometheusPort();
        try (AdversityRun faults = adversity;
             PrometheusEndpoint endpoint = port == null ? null : liveMetrics(port);
             Database db = faults == null ? connection.open(database, out) : faults.open(connection, database, out)) {
            live = endpoint;
            labNote = db.keepLogsIn(outDir.resolve("lab")).orElse(null);
            if (endpoint != null) {
                out.println("Prometheus metrics: http://localhost:" + endpoint.port() + "/metrics");
            }
            serverCpu = ServerCpu.locate(db.settings()).orElse(null);
            P prepared = preparation.prepare(db, base);
            // A plan file's phases first, then the workload's change (its roles; a phase of its own at the end).
            RunPlan runPlan = base;
            if (faults != null) {
                runPlan = faults.apply(runPlan, command.commandLine() != null && command.commandLine().getParseResult()
                        != null && command.commandLine().getParseResult().hasMatchedOption("--report-every"));
            }
            runPlan = plan.apply(prepared, runPlan);
            runPlan.threads().note(runPlan.clients()).ifPresent(out::println);
            if (!objectives.isEmpty()) {
                // Before the workload's own preparation of a run (bench-script vacuums, ledgers open): made for its
                // names only, and again for the run.
                Workload<Connection> names = workload.make(prepared, SINGLE);
                try {
                    dev.gauntlet.core.objective.Objective.checkNames(objectives, names.operationNames(),
                            names.observedLatencies());
                } catch (IllegalArgumentException e) {
                    throw new BadInputException("--slo " + e.getMessage());
                }
            }
            if (search != null) {
                return runSearch(db, prepared, runPlan, outDir);
            }
            if (experiment == null) {
                beforeEachRun.prepare(prepared, SINGLE, outDir);
                awaitStart();
                return ExitCode.of(runOnce(db, prepared, runPlan, SINGLE, null, Map.of(), outDir));
            }
            return runExperiment(db, prepared, runPlan, experiment, outDir);
        }
    }

    private PrometheusEndpoint liveMetrics(int port) {
        try {
            return PrometheusEndpoint.start(workloadName, options.share().label(), port);
        } catch (java.io.UncheckedIOException e) {
            throw new BadInputException("--prometheus-port: " + e.getMessage(), e);
        }
    }

    private void awaitStart() {
        try {
            options.awaitStart(out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException("interrupted while waiting for --start-at", e);
        }
    }

    /** The console's listener, and the Prometheus endpoint's when there is one. */
    private Function<PrintStream, RunListener> listeners(Function<PrintStream, RunListener> console) {
        PrometheusEndpoint endpoint = live;
        return endpoint == null ? console : o -> RunListener.both(console.apply(o), endpoint);
    }

    /** Every SQL run's: round trips on the wire, and the server's CPU when it runs on this machine. */
    private List<Probe> serverProbes() {
        return serverCpu == null ? List.of(new RoundTrips()) : List.of(new RoundTrips(), serverCpu);
    }

    private RunResult runOnce(Database db, P prepared, RunPlan runPlan, Cell cell, String step,
                              Map<String, String> inEffect, Path dir) {
        PoolMode pool = cell.level(POOL).map(l -> PoolMode.parse(l.name())).orElse(connection.pool());
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("pool", pool.name().toLowerCase(Locale.ROOT));
        WorkerShare share = options.share();
        if (share.count() > 1) {
            p.put(WorkerShare.PARAMETER, share.label());
        }
        if (pool != PoolMode.DIRECT) {
            p.put("poolSize", connection.poolSize());
        }
        p.putAll(parameters.make(prepared, cell));
        if (labNote != null) {
            RunReport.addNote(p, labNote);
        }
        if (adversity != null) {
            p.putAll(adversity.parameters());
        }
        if (cell != SINGLE) {
            p.putAll(cell.runParameters(inEffect));
            if (cell.level(POOL).isPresent()) {
                // The pool size comes with the mode: recorded for pooled modes only, it is part of what varies.
                p.put(PairComparison.VARIABLES, p.get(PairComparison.VARIABLES) + ", poolSize");
            }
        }
        try (JdbcTarget target = connection.target(db, pool, isolation.applyAsInt(prepared), runPlan.clients())) {
            // Made once: a priming apart uses them and leaves them open for the measured run, which closes them.
            List<Probe> runProbes = new java.util.ArrayList<>(probes.apply(prepared));
            runProbes.addAll(serverProbes());
            ApartPriming priming = new ApartPriming(runPlan, options.primeApart());
            if (primeApart != null && share.whole() && adversity == null && priming.applies()) {
                target.keepSessions();
                try {
                    primeApart.before(prepared);
                } catch (SQLException e) {
                    throw new RunFailedException("cannot keep the tables for after the priming: "
                            + SqlStates.message(e), e);
                }
                dev.gauntlet.core.cli.PrimeOutcome outcome;
                try {
                    outcome = priming.run(workload.make(prepared, cell), target, runProbes,
                            c -> primeApart.after(prepared, c), c -> primeApart.settle(prepared, c), out);
                } catch (RuntimeException e) {
                    runProbes.forEach(Probe::close);
                    throw e;
                }
                runPlan = priming.measured();
                p.put("prime", priming.describe());
                if (outcome != null) {
                    outcome.record(p);
                }
            }
            return Benchmark.of(command, workloadName, out).keeping(options.results()).judging(objectives).run(RunSpec.of(runPlan, workload.make(prepared, cell), target)
                    .variant(cell == SINGLE ? step : cell.label()).parameters(p)
                    .environment(Provenance.environment(db.version(), db.settings().url())).out(dir)
                    .probes(runProbes)
                    .probes(adversity == null ? List.of() : adversity.probes(db))
                    .finish((r, timeline) -> adversity == null ? finish.apply(prepared, r)
                            : adversity.judge(finish.apply(prepared, r), timeline))
                    .progress(listeners(adversity == null ? progress : dev.gauntlet.core.run.TimelineProgress::new)));
        }
    }

    private int runSearch(Database db, P prepared, RunPlan base, Path outDir) {
        return SearchRun.run(search, prepared, base, outDir, out, (step, dir) -> {
            beforeEachRun.prepare(prepared, SINGLE, dir);
            return runOnce(db, prepared, step.plan(), SINGLE, step.label(), Map.of(), dir);
        });
    }

    private int runExperiment(Database db, P prepared, RunPlan runPlan, Experiment experiment, Path outDir) {
        ExperimentRunner.Outcome outcome = new ExperimentRunner(experiment, new ServerSettings(db),
                experimentOptions == null ? dev.gauntlet.core.report.Comparison.DEFAULT_THRESHOLD_PERCENT
                        : experimentOptions.threshold(), out).run(outDir, (cell, inEffect, dir) -> {
                    beforeEachRun.prepare(prepared, cell, dir);
                    return runOnce(db, prepared, runPlan, cell, null, inEffect, dir);
                }, experimentNotes, cells -> experimentSummary.apply(prepared, cells));
        out.println();
        out.print(outcome.markdown());
        out.println();
        out.println("Comparison: " + outcome.comparison());
        if (!outcome.failures().isEmpty()) {
            throw new RunFailedException(outcome.failures().size() + " cell(s) failed: "
                    + String.join("; ", outcome.failures()));
        }
        // 1 when a check failed in any run, else 4 when any run missed an objective.
        return outcome.results().mapToInt(ExitCode::of).filter(c -> c != ExitCode.OK).min().orElse(ExitCode.OK);
    }
}

package dev.gauntlet.script;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.OperationLog;
import dev.gauntlet.core.run.ProgressPrinter;
import dev.gauntlet.core.run.RunListener;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.script.checks.RunInvariants;
import dev.gauntlet.script.figures.PgbenchProgress;
import dev.gauntlet.script.figures.PgbenchSummary;
import dev.gauntlet.script.lang.BuiltinScripts;
import dev.gauntlet.script.pgbench.PgbenchConsole;
import dev.gauntlet.script.schema.PgbenchSchema;
import dev.gauntlet.script.workload.CompiledScript;
import dev.gauntlet.script.workload.HistoryLedger;
import dev.gauntlet.script.lang.QueryMode;
import dev.gauntlet.script.workload.PgbenchSeeding;
import dev.gauntlet.script.workload.PgbenchTransactionLog;
import dev.gauntlet.script.workload.ScriptRun;
import dev.gauntlet.script.workload.ScriptWorkload;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.PoolMode;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.SqlBenchmark;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code bench-script run}: pgbench scripts, with pgbench's options, measured the Gauntlet way. */
@Command(name = "run", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs pgbench scripts, unchanged: the built-ins (-b tpcb-like, simple-update, select-only; -N, "
                + "-S) and script files (-f FILE[@WEIGHT]) in PostgreSQL 15 pgbench's language. Each client runs "
                + "transactions back to back (or on the -R/--rate schedule), each a script chosen by weight; one pass "
                + "through a script is one transaction.",
                "Takes pgbench's options with pgbench's meaning (-c -j -T -t -R -L -M -D -s -P -r -n -v --random-seed "
                        + "--max-tries --verbose-errors ...) and Gauntlet's long ones (--clients, --duration, --rate, "
                        + "--plan, --worker, --out, --url, --experiment ...). A pgbench option it does not support is "
                        + "refused by name.",
                "Prints pgbench's summary lines, then latency percentiles from each transaction's intended start per "
                        + "script (and per command with -r), and writes result.json, report.md and the dashboard. After "
                        + "runs of the built-ins only: the balances moved together and every transaction heard commit is "
                        + "in pgbench_history."},
        footer = {"", "Examples:",
                "  bench-script run --init -s 10 -c 8 -j 2 -T 60 -M prepared             # TPC-B-like, embedded PostgreSQL",
                "  bench-script run -S -c 32 -T 60 --url jdbc:postgresql://db:5432/bench --user bench",
                "  bench-script run -f mix.sql@9 -b select-only@1 -D ratio=0.5 -c 16 -T 120 -r",
                "  bench-script run -c 8 -R 2000 -L 5 -T 60                               # open loop, late count",
                "  bench-script run -c 8 --plan plans/pgbench-sessions.yaml --url jdbc:postgresql://db:5432/bench   # faults"})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Mixin
    PgbenchOptions pgbench;
    @Spec
    CommandSpec spec;

    @Option(names = {"-?", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "--init", description = "Load the pgbench tables first (scale -s, default 1) when they are absent.")
    boolean init;

    /** What the runs share. */
    static final class Setup {
        final Database db;
        final long scale;
        final double connectMs;
        final ScriptRun run;
        final RunPlan plan;
        HistoryLedger ledger;
        RunInvariants.Sums before;

        Setup(Database db, long scale, double connectMs, ScriptRun run, RunPlan plan) {
            this.db = db;
            this.plan = plan;
            this.scale = scale;
            this.connectMs = connectMs;
            this.run = run;
        }
    }

    private PgbenchConsole console;
    private ScriptRun lastRun;
    private List<CompiledScript> scripts;
    private boolean builtinsOnly;
    private boolean anyBuiltin;
    private QueryMode mode;

    /** Where pgbench's own lines go (bench-script pgbench's streams); by default the process's. */
    public void console(PgbenchConsole where) {
        this.console = where;
    }

    @Override
    public Integer call() {
        if (console == null) {
            console = PgbenchConsole.standard();
        }
        ParseResult parsed = spec.commandLine().getParseResult();
        if (pgbench.showScript != null) {
            System.out.print(BuiltinScripts.find(pgbench.showScript).showScript());
            return 0;
        }
        List<PgbenchOptions.ScriptArgument> given = pgbench.scripts(parsed);
        if (given.stream().anyMatch(s -> s.builtin() && s.text().equals("list"))) {
            System.out.print(BuiltinScripts.listing());
            return 0;
        }
        pgbench.applyTo(options, parsed);
        if (options.share().count() > 1 && !pgbench.noVacuum) {
            throw new BadInputException("--worker " + options.share() + " needs -n: each process would vacuum and "
                    + "truncate pgbench_history under the others' transactions (vacuum once beforehand, e.g. with a "
                    + "short run without -n)");
        }
        mode = QueryMode.fromOption(pgbench.protocol);
        ScriptArguments.Chosen chosen = ScriptArguments.compile(given, mode);
        scripts = chosen.scripts();
        builtinsOnly = given.stream().allMatch(PgbenchOptions.ScriptArgument::builtin);
        anyBuiltin = given.stream().anyMatch(PgbenchOptions.ScriptArgument::builtin);
        PgbenchTables tables = new PgbenchTables();
        try {
            return benchmark(tables, chosen);
        } catch (RunFailedException e) {
            if (console.dropIn() && clientsAborted() > 0) {
                return ExitCode.FAILED; // pgbench's own lines said why each client ended
            }
            throw e;
        }
    }

    /** pgbench's -l files for a run ({@code bench-script pgbench -l}), or null. */
    private PgbenchTransactionLog transactionLog(Setup s) {
        if (console.log() == null) {
            return null;
        }
        try {
            return new PgbenchTransactionLog(console.log(), scripts, options.clients(),
                    pgbench.threads(options.clients()), s.plan.openLoop(), options.maxAttempts(),
                    pgbench.failuresDetailed, options.share().part(options.clients()).from());
        } catch (java.io.UncheckedIOException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    /** Clients of the last run that ended on an error, said in pgbench's lines ({@code bench-script pgbench}). */
    public int clientsAborted() {
        return lastRun == null ? 0 : lastRun.aborted();
    }

    private Integer benchmark(PgbenchTables tables, ScriptArguments.Chosen chosen) {
        // bench-script pgbench -P: pgbench's progress lines on standard error, Gauntlet's in its console.log
        PgbenchProgress progress = console.dropIn() && pgbench.progress != null ? new PgbenchProgress(console.err(),
                console.progressTimestamp(), pgbench.rate != null, options.maxAttempts()) : null;
        return SqlBenchmark.of(spec, "script", connection, options, this::prepare)
                .progress(out -> progress == null ? new ProgressPrinter(out)
                        : RunListener.both(new ProgressPrinter(out), progress))
                .database(tables.name())
                .experiments(experiments, List.of(), "The runs followed one another on the same pgbench tables.")
                .beforeEachRun((s, cell, dir) -> beforeRun(s, dir))
                .workload((s, cell) -> new ScriptWorkload(scripts, chosen.choice(), s.run, new PgbenchSeeding(options.seed(),
                        options.clients(), pgbench.threads(options.clients()), s.scale, pgbench.defines),
                        options.share().part(options.clients()).from()).logTo(OperationLog.both(transactionLog(s), progress)))
                .parameters((s, cell) -> parameters(s))
                .finish(this::finish)
                .call();
    }

    private Setup prepare(Database db, RunPlan plan) {
        try (Connection c = db.settings().connectForAdmin()) {
            PgbenchSchema.Loaded loaded = PgbenchSchema.loaded(c);
            if (loaded == null && init) {
                loaded = PgbenchTables.initialize(c, pgbench.scale == null ? 1 : pgbench.scale, System.out);
            }
            if (loaded == null && builtinsOnly) {
                throw new BadInputException("the pgbench tables are not loaded: bench-script init -s N first (or run "
                        + "--init -s N)");
            }
            long scale = pgbench.scale != null ? pgbench.scale : loaded != null ? loaded.scale() : 1;
            if (anyBuiltin && loaded != null && pgbench.scale != null && !init && !console.dropIn()) {
                // As pgbench: a built-in script runs at the tables' scale, whatever -s says.
                System.err.printf("pgbench: warning: scale option ignored, using count from pgbench_branches table "
                        + "(%d)%n", loaded.scale());
                scale = loaded.scale();
            }
            long start = System.nanoTime();
            db.settings().connect().close();
            double connectMs = (System.nanoTime() - start) / 1e6;
            ScriptRun run = new ScriptRun(mode, pgbench.perCommand, plan.openLoop(), new ScriptRun.Diagnostics(
                    console.err(), pgbench.verboseErrors, console.debug(), console.dropIn()), scripts);
            lastRun = run;
            return new Setup(db, scale, connectMs, run, plan);
        } catch (SQLException e) {
            throw new RunFailedException("cannot read the pgbench tables: " + SqlStates.message(e), e);
        }
    }

    /** pgbench's vacuum (unless -n), then the sums the run's checks start from and a ledger in the run's directory. */
    private void beforeRun(Setup s, Path dir) {
        try (Connection c = s.db.settings().connectForAdmin()) {
            if (!pgbench.noVacuum) {
                vacuum(c);
            }
            if (builtinsOnly) {
                s.before = RunInvariants.Sums.read(c);
                if (s.ledger != null) {
                    s.ledger.close();
                }
                s.ledger = HistoryLedger.in(dir);
                s.run.ledger(s.ledger);
            }
        } catch (SQLException e) {
            throw new RunFailedException("cannot prepare the run: " + SqlStates.message(e), e);
        }
    }

    /** As pgbench: branches and tellers vacuumed, the history emptied (-v: all four); errors said and passed over. */
    private void vacuum(Connection c) {
        java.io.PrintStream out = console.vacuum();
        out.print("starting vacuum...");
        List<String> steps = new ArrayList<>(List.of("VACUUM pgbench_branches", "VACUUM pgbench_tellers",
                "TRUNCATE pgbench_history"));
        if (pgbench.vacuumAll) {
            steps.addAll(List.of("VACUUM pgbench_accounts", "VACUUM pgbench_history"));
        }
        for (String sql : steps) {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            } catch (SQLException e) {
                out.println();
                out.println("pgbench: error: " + SqlStates.message(e));
                out.print("(ignoring this error and continuing anyway)");
            }
        }
        out.println("end.");
    }

    private Map<String, Object> parameters(Setup s) {
        Map<String, Object> p = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (CompiledScript script : scripts) {
            names.add(script.operation() + "@" + script.weight());
        }
        p.put("scripts", String.join(", ", names));
        p.put("queryMode", mode.option());
        p.put("scale", s.scale);
        p.put("maxTries", options.maxAttempts());
        if (!pgbench.defines.isEmpty()) {
            p.put("defines", pgbench.defines.toString());
        }
        if (pgbench.latencyLimitMs != null) {
            p.put("latencyLimitMs", pgbench.latencyLimitMs);
        }
        p.put("vacuum", pgbench.noVacuum ? "none (-n)" : pgbench.vacuumAll ? "all four tables (-v)"
                : "branches and tellers, history truncated");
        p.put(RunReport.NOTES, notes(s));
        return p;
    }

    /** Where these figures mean something else than pgbench's of the same name, one sentence each. */
    private List<String> notes(Setup s) {
        List<String> notes = new ArrayList<>();
        if (!s.run.throttled()) {
            notes.add("latency here is from each transaction's intended start (closed loop: when the client's previous "
                    + "one ended); pgbench's, without -R, from its actual start: the printed pgbench summary uses "
                    + "pgbench's, the percentiles ours");
        }
        if (pgbench.latencyLimitMs != null) {
            notes.add("no transaction is skipped under -L: pgbench with -R skips those already -L behind schedule, "
                    + "Gauntlet runs every one and counts it late");
        }
        if (scripts.stream().anyMatch(CompiledScript::joinsBegin)) {
            notes.add("a bare BEGIN is sent with the statement after it, as pgjdbc sends it: one round trip a "
                    + "transaction fewer than pgbench" + (pgbench.perCommand ? ", and with -r that BEGIN's latency is "
                    + "about 0, the next command's holding it" : ""));
        }
        if (!s.plan.prime().isZero()) {
            notes.add("the run was primed before it was measured (--prime), and priming's transactions are not in "
                    + "the figures; pgbench measures from its first transaction");
        }
        return notes;
    }

    private RunResult finish(Setup s, RunResult r) {
        List<Check> checks = new ArrayList<>(r.checks());
        if (builtinsOnly && s.before != null) {
            try (Connection c = s.db.settings().connectForAdmin()) {
                checks.addAll(RunInvariants.after(c, s.before, s.ledger.file(), s.ledger.size()));
            } catch (SQLException e) {
                checks.add(Check.fail("pgbench invariants", "could not be checked: " + SqlStates.message(e)));
            }
        }
        RunPlan plan = s.plan;
        PgbenchSummary.Setup summary = new PgbenchSummary.Setup(s.scale, mode.option(), plan.clients(),
                pgbench.threads(plan.clients()),
                options.maxAttempts(), plan.iterations() > 0 ? null : options.duration().toSeconds(),
                plan.iterations() > 0 ? plan.iterations() : null, pgbench.latencyLimitMs, plan.openLoop(),
                pgbench.progress != null, pgbench.perCommand, pgbench.failuresDetailed, s.connectMs,
                connection.pool() == PoolMode.CONNECT);
        if (!console.dropIn()) {
            console.out().println();
        }
        console.out().print(PgbenchSummary.text(r, summary, scripts, s.run, !console.dropIn()));
        if (console.dropIn() && s.run.aborted() > 0) {
            console.out().flush();
            console.err().println("pgbench: error: Run was aborted; the above results are incomplete.");
        }
        long total = scripts.stream().mapToLong(sc -> r.operation(sc.operation()).map(o -> o.count()).orElse(0L)).sum();
        var metrics = new LinkedHashMap<>(r.metrics());
        metrics.put("tps", total / Math.max(r.measuredSeconds(), 1e-9));
        var info = new LinkedHashMap<>(r.metricInfo());
        info.put("tps", MetricInfo.higher());
        return r.toBuilder().metrics(metrics).metricInfo(info).checks(checks).build();
    }
}

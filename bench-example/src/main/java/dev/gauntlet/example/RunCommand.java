package dev.gauntlet.example;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.example.checks.KvChecks;
import dev.gauntlet.example.checks.PutLedger;
import dev.gauntlet.example.schema.KvSchema;
import dev.gauntlet.example.workload.KvWorkload;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.SqlBenchmark;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-kv run}: the mix, once or as an experiment, then the checks. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs gets and puts of uniformly chosen keys; reports latency per operation, MiB/s read and "
                + "written, and checks the data (every put counted in the versions, no key lost).",
        footer = {"", "Examples:", "  bench-kv run --init --duration 30s",
                "  bench-kv run --read-percent 50 --clients 16 --rate 2000 --duration 2m --warmup 20s",
                "  bench-kv run --experiment commit.exp --repeat 3"})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Spec
    CommandSpec spec;

    @Option(names = "--read-percent", paramLabel = "PCT", defaultValue = "90",
            description = "Share of operations that are gets; the rest are puts (default: ${DEFAULT-VALUE}).")
    int readPercent;

    @Option(names = "--init", description = "Load the table first (10,000 keys of 100 bytes) if it is not loaded.")
    boolean init;

    /** What the runs share: the database, what is loaded, and the ledger of puts. */
    private record Setup(Database db, KvSchema.Loaded loaded, PutLedger ledger) {
    }

    @Override
    public Integer call() {
        if (readPercent < 0 || readPercent > 100) {
            throw new BadInputException("--read-percent must be 0..100 (got " + readPercent + ")");
        }
        return SqlBenchmark.of(spec, KvCommand.NAME, connection, options, this::setup)
                .experiments(experiments, List.of(), "The runs followed one another on the same table.")
                .workload((s, cell) -> new KvWorkload(s.loaded().keys(), s.loaded().valueSize(), readPercent))
                .parameters((s, cell) -> Map.of("keys", s.loaded().keys(), "valueSize", s.loaded().valueSize(),
                        "readPercent", readPercent))
                .finish(this::finish)
                .call();
    }

    private Setup setup(Database db, RunPlan plan) {
        try (Connection c = db.settings().connectForAdmin()) {
            KvSchema.Loaded loaded = KvSchema.loaded(c);
            if (loaded == null && init) {
                loaded = InitCommand.load(db, 10_000, 100, false);
            }
            if (loaded == null || loaded.keys() == 0) {
                throw new BadInputException("no kv table is loaded; run init first (or run --init)");
            }
            return new Setup(db, loaded, PutLedger.open(c));
        } catch (SQLException e) {
            throw new RunFailedException("cannot read the kv table: " + SqlStates.message(e), e);
        }
    }

    private RunResult finish(Setup s, RunResult r) {
        Metrics metrics = Metrics.of(r);
        double seconds = Math.max(r.measuredSeconds(), 1e-9);
        r.operation(KvWorkload.GET).ifPresent(o -> metrics.add("readMiBPerSecond",
                o.counter("bytesRead") / seconds / (1 << 20), MetricInfo.higher().addsUp()));
        r.operation(KvWorkload.PUT).ifPresent(o -> metrics.add("writeMiBPerSecond",
                o.counter("bytesWritten") / seconds / (1 << 20), MetricInfo.higher().addsUp()));
        List<Check> checks = new ArrayList<>(r.checks());
        try (Connection c = s.db().settings().connectForAdmin()) {
            checks.add(s.ledger().check(c, r));
            checks.addAll(KvChecks.run(c, s.loaded().keys(), s.loaded().valueSize()));
        } catch (SQLException e) {
            checks.add(Check.fail("kv checks", "could not run: " + SqlStates.message(e)));
        }
        return r.toBuilder().metrics(metrics).checks(checks).build();
    }
}

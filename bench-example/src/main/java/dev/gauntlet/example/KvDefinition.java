package dev.gauntlet.example;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.MetricInfo;
import dev.gauntlet.core.result.Metrics;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Workload;
import dev.gauntlet.example.checks.KvChecks;
import dev.gauntlet.example.checks.PutLedger;
import dev.gauntlet.example.schema.KvSchema;
import dev.gauntlet.example.workload.KvWorkload;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.cli.SqlWorkload;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The kv workload, defined once: one table of {@code --keys} rows; gets and puts of uniformly chosen keys; after each
 * run, MiB/s read and written, and the checks (every put counted in the versions, no key lost, every value its
 * length).
 */
final class KvDefinition implements SqlWorkload<KvSchema.Loaded, KvDefinition.Prepared> {

    /** {@code init}'s options (and {@code run --init}'s). */
    static final class LoadOptions {
        @Option(names = "--keys", paramLabel = "N", defaultValue = "10000",
                description = "Rows to load (default: ${DEFAULT-VALUE}).")
        long keys;

        @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "100",
                description = "Bytes per value (default: ${DEFAULT-VALUE}).")
        int valueSize;
    }

    /** {@code run}'s own option. */
    static final class RunOptions {
        @Option(names = "--read-percent", paramLabel = "PCT", defaultValue = "90",
                description = "Share of operations that are gets; the rest are puts (default: ${DEFAULT-VALUE}).")
        int readPercent;
    }

    /** {@code check}'s own option. */
    static final class CheckOptions {
        @Option(names = "--keys", paramLabel = "N",
                description = "Keys that were loaded (default: the highest key + 1); finds the highest keys missing too.")
        Long keys;
    }

    /** What the runs share: what is loaded, and the ledger of puts. */
    record Prepared(KvSchema.Loaded loaded, PutLedger ledger) {
    }

    private final LoadOptions load = new LoadOptions();
    private final RunOptions run = new RunOptions();
    private final CheckOptions check = new CheckOptions();

    @Override
    public String name() {
        return "kv";
    }

    @Override
    public String tables() {
        return "the kv table";
    }

    @Override
    public List<String> examples(String command) {
        return switch (command) {
            case "init" -> List.of("bench-kv init                                          # 10,000 keys of 100 bytes",
                    "bench-kv init --url jdbc:postgresql://host:5432/db --user bench --keys 1000000",
                    "bench-kv init --keys 100000 --value-size 1000 --drop   # replaces a loaded table");
            case "run" -> List.of("bench-kv run --init --duration 30s",
                    "bench-kv run --read-percent 50 --clients 16 --rate 2000 --duration 2m --warmup 20s",
                    "bench-kv run --experiment commit.exp --repeat 3");
            case "check" -> List.of("bench-kv check", "bench-kv check --url jdbc:postgresql://host:5432/db --user bench",
                    "bench-kv check --keys 100000   # as loaded: also finds the highest keys missing");
            default -> List.of("bench-kv " + command,
                    "bench-kv " + command + " --url jdbc:postgresql://host:5432/db --user bench --password   # prompts");
        };
    }

    @Override
    public Object loadOptions() {
        return load;
    }

    @Override
    public Object runOptions() {
        return run;
    }

    @Override
    public Object checkOptions() {
        return check;
    }

    @Override
    public KvSchema.Loaded loaded(Connection c) throws SQLException {
        return KvSchema.loaded(c);
    }

    @Override
    public KvSchema.Loaded load(Connection c) throws SQLException {
        if (load.keys < 1 || load.valueSize < 1) {
            throw new BadInputException("--keys and --value-size must be at least 1 (got " + load.keys + " and "
                    + load.valueSize + ")");
        }
        KvSchema.load(c, load.keys, load.valueSize);
        return new KvSchema.Loaded(load.keys, load.valueSize);
    }

    @Override
    public String describe(KvSchema.Loaded loaded) {
        return String.format(Locale.ROOT, "%,d keys of %d bytes", loaded.keys(), loaded.valueSize());
    }

    @Override
    public void drop(Connection c) throws SQLException {
        KvSchema.drop(c);
    }

    @Override
    public List<Check> checks(Connection c, KvSchema.Loaded loaded) throws SQLException {
        return KvChecks.run(c, check.keys != null ? check.keys : loaded.keys(), loaded.valueSize());
    }

    @Override
    public Prepared prepare(Database db, Connection c, KvSchema.Loaded loaded) throws SQLException {
        if (run.readPercent < 0 || run.readPercent > 100) {
            throw new BadInputException("--read-percent must be 0..100 (got " + run.readPercent + ")");
        }
        if (loaded.keys() == 0) {
            throw new BadInputException("the kv table is empty; init --drop reloads it");
        }
        return new Prepared(loaded, PutLedger.open(c));
    }

    @Override
    public Workload<Connection> workload(Prepared p, Cell cell) {
        return new KvWorkload(p.loaded().keys(), p.loaded().valueSize(), run.readPercent);
    }

    @Override
    public Map<String, ?> parameters(Prepared p) {
        return Map.of("keys", p.loaded().keys(), "valueSize", p.loaded().valueSize(), "readPercent", run.readPercent);
    }

    @Override
    public RunResult finish(Connection c, Prepared p, RunResult r) throws SQLException {
        Metrics metrics = Metrics.of(r);
        double seconds = Math.max(r.measuredSeconds(), 1e-9);
        r.operation(KvWorkload.GET).ifPresent(o -> metrics.add("readMiBPerSecond",
                o.counter("bytesRead") / seconds / (1 << 20), MetricInfo.higher().addsUp()));
        r.operation(KvWorkload.PUT).ifPresent(o -> metrics.add("writeMiBPerSecond",
                o.counter("bytesWritten") / seconds / (1 << 20), MetricInfo.higher().addsUp()));
        List<Check> checks = new ArrayList<>(r.checks());
        checks.add(p.ledger().check(c, r));
        checks.addAll(KvChecks.run(c, p.loaded().keys(), p.loaded().valueSize()));
        return r.toBuilder().metrics(metrics).checks(checks).build();
    }
}

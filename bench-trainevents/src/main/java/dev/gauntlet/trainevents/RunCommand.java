package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.NameList;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.experiment.Cell;
import dev.gauntlet.core.experiment.Dimension;
import dev.gauntlet.core.experiment.Experiment;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.Probe;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.Rendezvous;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.sql.cli.PrimingApart;
import dev.gauntlet.sql.cli.SqlBenchmark;
import dev.gauntlet.sql.observe.PostgresGauges;
import dev.gauntlet.sql.observe.WaitEvents;
import dev.gauntlet.sql.observe.WalBytes;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.figures.CycleTable;
import dev.gauntlet.trainevents.figures.LifecycleFigures;
import dev.gauntlet.trainevents.figures.MatrixReport;
import dev.gauntlet.trainevents.schema.EventTables;
import dev.gauntlet.trainevents.workload.EventLedger;
import dev.gauntlet.trainevents.workload.Lifecycle;
import dev.gauntlet.trainevents.workload.TrainEventsWorkload;
import dev.gauntlet.trainevents.workload.Variant;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench-trainevents run}: the event lifecycle, one variant and pool mode, or a matrix of them. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Each client cycles through the railway event lifecycle: add a batch of --min-batch.."
                + "--max-batch events with their PENDING status rows; process (claim PENDING and PROCESSING events "
                + "FOR UPDATE SKIP LOCKED, edit each payload, advance PENDING -> PROCESSING -> COMPLETE, or FAILED for "
                + "--fail-percent); archive (move COMPLETE and FAILED events to the archive and delete them); then "
                + "wait --delay, jittered.",
                "Every run starts from the variant's tables seeded with --seed-events PENDING events. Reports the "
                        + "dbworkload table (add, process, archive, cycle), WAL bytes per event, table, index and "
                        + "TOAST sizes, the server's wait events, driver and server CPU per cycle; then checks that "
                        + "every event added is live or archived exactly once, none is in a state behind a process "
                        + "or archive the driver heard commit, status rows match, and the flat columns equal the "
                        + "payload's values.",
                "Several --variant or --pool values make a matrix: each cell in turn with the same seed (--repeat "
                        + "alternates), then comparison.md: per operation by variant and by pool mode, and what the "
                        + "numbers say.",
                "Split between processes (--worker I/N, all with the same --start-at): worker 0 creates and seeds "
                        + "the tables, the others wait for them; each process runs its part of --clients over the "
                        + "shared tables, stores its ledger, and worker 0 checks against every process's ledger. "
                        + "Then report merge."},
        footer = {"", "Examples:",
                "  bench-trainevents run --variant text --clients 64 --duration 3m",
                "  bench-trainevents run --variant jsonb,jsonb-manual,text --pool direct,pooled,pgbouncer --clients 64 "
                        + "--pool-size 8 --duration 3m --warmup 20s",
                "  bench-trainevents run --clients 1000 --delay 10s --pool pooled --pool-size 8 --duration 3m",
                "  bench-trainevents run --variant jsonb --lock-hold 20ms --url jdbc:postgresql://db:5432/rail --user bench",
                "  bench-trainevents run --clients 64 --worker 0/2 --start-at 2026-11-25T15:00:00Z --out w0   # and "
                        + "--worker 1/2 elsewhere, then: bench-trainevents report merge w0 w1"})
public final class RunCommand implements Callable<Integer> {

    static final String VARIANT = Experiment.VARIANT;

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Spec
    CommandSpec spec;

    @Option(names = "--variant", paramLabel = "NAME", split = ",", defaultValue = "jsonb",
            description = "jsonb, jsonb-manual or text; several (comma-separated) make a matrix (default: ${DEFAULT-VALUE}).")
    List<String> variants;
    @Mixin
    ShapeOptions shape;
    @Option(names = "--seed-events", paramLabel = "N", defaultValue = "10000",
            description = "PENDING events each run's tables start with (default: ${DEFAULT-VALUE}).")
    long seedEvents;

    /**
     * What the runs share (the database, and where the processes of a split run meet: worker 0 of 1 when this one
     * runs it all), and the current run's variant and ledger (a file in the run's directory).
     */
    static final class Setup {
        final Database db;
        final Rendezvous split;
        EventLedger ledger;
        /** The seeded events' ledger, kept through a priming run apart (whose events go to a ledger of its own). */
        EventLedger seeded;
        Variant variant;

        Setup(Database db, Rendezvous split) {
            this.db = db;
            this.split = split;
        }
    }

    /** The steps a split run's processes meet at. */
    static final String TABLES_SEEDED = "train event tables seeded";
    static final String LEDGERS_STORED = "train event ledgers stored";

    @Override
    public Integer call() {
        List<Variant> chosen = validate();
        List<Dimension> dimensions = new ArrayList<>();
        if (chosen.size() > 1) {
            dimensions.add(Dimension.of(VARIANT, chosen.stream().map(Variant::label).toList()));
        }
        return SqlBenchmark.of(spec, TrainEventsCommand.NAME, connection, options, (db, plan) -> prepare(db))
                .experiments(experiments, dimensions, "Each run started from the variant's tables, freshly created "
                        + "and seeded with " + seedEvents + " PENDING events.")
                .beforeEachRun((s, cell, dir) -> fresh(s, variantOf(cell, chosen), dir))
                .primeApart(new PrimingApart<>() {
                    @Override
                    public void before(Setup s) throws SQLException {
                        try (Connection c = s.db.settings().connectForAdmin()) {
                            EventTables.keep(c, s.variant, s.db.isCockroach());
                        }
                        s.seeded = s.ledger;
                        s.ledger = new EventLedger(); // a temporary file, deleted after
                    }

                    @Override
                    public void after(Setup s, Connection c) throws SQLException {
                        EventTables.restore(c, s.variant, s.db.isCockroach());
                        s.ledger.delete();
                        s.ledger = s.seeded;
                    }

                    @Override
                    public void settle(Setup s, Connection session) throws SQLException {
                        Lifecycle.endCycle(session, s.variant);
                    }
                })
                .workload((s, cell) -> new TrainEventsWorkload(s.variant, s.ledger, shape.shape()))
                .parameters((s, cell) -> parameters(s))
                .probes(this::probes)
                .progress(out -> new CycleTable(out, options.plan().clients()))
                .finish(this::finish)
                .experimentSummary((s, cells) -> MatrixReport.markdown(cells))
                .call();
    }

    private List<Variant> validate() {
        options.requireStartAtToSplit("worker 0 creates and seeds its tables, the others wait for them");
        if (spec.commandLine().getParseResult().hasMatchedOption("--rate")) {
            throw new BadInputException("--rate does not apply: clients cycle back to back; pace them with --delay");
        }
        if (options.capacity().findMaxRate()) {
            throw new BadInputException("--find-max-rate does not apply: clients cycle back to back (no rate to search "
                    + "on); judge a run with --slo, and vary --clients or --delay");
        }
        shape.validate();
        if (seedEvents < 0) {
            throw new BadInputException("--seed-events must not be negative (got " + seedEvents + ")");
        }
        return NameList.parse("--variant", variants, Variant::parse);
    }

    private static Variant variantOf(Cell cell, List<Variant> chosen) {
        return cell.level(VARIANT).map(l -> Variant.parse(l.name())).orElse(chosen.get(0));
    }

    private Setup prepare(Database db) {
        return new Setup(db, Rendezvous.of(db.settings(), options, System.out));
    }

    /**
     * Every run: the variant's tables afresh, seeded, and a ledger of its own in the run's directory (the last run's
     * closed, left in its own). A split run's tables are created and seeded once, by worker 0 (its ledger holds the
     * seeded events), with the table the ledgers are gathered in.
     */
    private void fresh(Setup s, Variant v, Path runDirectory) {
        s.variant = v;
        if (s.ledger != null) {
            s.ledger.close();
        }
        s.ledger = new EventLedger(runDirectory);
        Runnable create = () -> {
            System.out.printf("Creating the %s tables and seeding %,d events...%n", v, seedEvents);
            try (Connection c = s.db.settings().connectForAdmin()) {
                EventTables.create(c, v, s.db.isCockroach(), seedEvents, options.seed(), s.ledger);
                if (!s.split.share().whole()) {
                    EventChecks.createSharedLedgers(c);
                }
            } catch (SQLException e) {
                throw new RunFailedException("cannot create the " + v + " tables: " + SqlStates.message(e), e);
            }
        };
        s.split.afterWorkerZero(TABLES_SEEDED, create, "worker 0 to create and seed the " + v + " tables");
    }

    private List<Probe> probes(Setup s) {
        List<Probe> probes = new ArrayList<>();
        probes.add(new PostgresGauges(s.db.settings(), List.of("train_event%", "train_events%")));
        probes.add(new WalBytes(s.db.settings()));
        if (!s.db.isCockroach()) {
            probes.add(WaitEvents.start(s.db.settings()));
        }
        return probes;
    }

    private Map<String, Object> parameters(Setup s) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(VARIANT, s.variant.label());
        p.putAll(shape.parameters());
        p.put("seedEvents", seedEvents);
        return p;
    }

    /** Checks against the ledger, then the figures: throughput, WAL and sizes per event, waits, CPU per cycle. */
    private RunResult finish(Setup s, RunResult r) {
        List<Check> checks = new ArrayList<>(r.checks());
        var m = LifecycleFigures.of(r);
        try (Connection c = s.db.settings().connectForAdmin()) {
            checks.addAll(verify(c, s));
            if (!s.db.isCockroach()) {
                LifecycleFigures.addSizes(m, c, r);
            }
        } catch (SQLException e) {
            checks.add(Check.fail("events", "could not be verified: " + SqlStates.message(e)));
        }
        System.out.println();
        System.out.print(CycleTable.of(r));
        if (s.split.share().whole()) {
            System.out.printf("Events: %,d added (%,d seeded before the run, %,d uncertain), %,d process and archive "
                    + "steps heard commit, every one checked%n", s.ledger.size(), seedEvents, s.ledger.uncertainSize(),
                    s.ledger.stepsSize());
        } else {
            System.out.printf("Events: %,d added here (%,d uncertain), %,d process and archive steps heard commit, "
                    + "checked by worker 0/%d against every worker's ledger%n", s.ledger.size(),
                    s.ledger.uncertainSize(), s.ledger.stepsSize(), s.split.share().count());
        }
        return r.toBuilder().metrics(m).checks(checks).build();
    }

    /** This run's checks; in a split run, worker 0's over every worker's stored ledger, none in the others. */
    private List<Check> verify(Connection c, Setup s) throws SQLException {
        if (s.split.share().whole()) {
            return EventChecks.run(c, s.variant, s.ledger);
        }
        EventChecks.store(c, s.split.share().index(), s.ledger);
        return s.split.allArrived(LEDGERS_STORED, options.plan().length(), "every worker's ledger to check the events")
                ? EventChecks.runOverStored(c, s.variant) : List.of();
    }
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExperimentOptions;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.cli.RunOptions;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.core.run.RunPlan;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code run} of a {@link SqlWorkload}: a {@link SqlBenchmark} whose steps are the definition's. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false)
final class RunWorkload<L, P> implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;
    @Mixin
    RunOptions options;
    @Mixin
    ExperimentOptions experiments;
    @Spec
    CommandSpec spec;

    @Option(names = "--init", description = "Load first (as init does, with its options) if nothing is loaded.")
    boolean init;

    private final SqlWorkload<L, P> definition;
    /** The database the runs go to, opened by {@link SqlBenchmark} before {@link #prepare}. */
    private Database db;

    RunWorkload(SqlWorkload<L, P> definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() {
        return SqlBenchmark.of(spec, definition.name(), connection, options, this::prepare)
                .experiments(experiments, List.of(), "The runs followed one another on the same tables.")
                .workload(definition::workload)
                .parameters((prepared, cell) -> definition.parameters(prepared))
                .finish(this::finish)
                .call();
    }

    private P prepare(Database db, RunPlan plan) {
        this.db = db;
        L loaded;
        try (Connection c = db.settings().connectForAdmin()) {
            loaded = definition.loaded(c);
        } catch (SQLException e) {
            throw new RunFailedException("cannot read " + definition.tables() + ": " + SqlStates.message(e), e);
        }
        if (loaded == null && init) {
            loaded = InitTables.load(definition, db, false);
        }
        if (loaded == null) {
            throw new BadInputException(definition.tables() + " is not loaded; run init first (or run --init)");
        }
        try (Connection c = db.settings().connectForAdmin()) {
            return definition.prepare(db, c, loaded);
        } catch (SQLException e) {
            throw new RunFailedException("cannot prepare the runs: " + SqlStates.message(e), e);
        }
    }

    private RunResult finish(P prepared, RunResult measured) {
        try (Connection c = db.settings().connectForAdmin()) {
            return definition.finish(c, prepared, measured);
        } catch (SQLException e) {
            List<Check> checks = new ArrayList<>(measured.checks());
            checks.add(Check.fail(definition.name() + " checks", "could not run: " + SqlStates.message(e)));
            return measured.toBuilder().checks(checks).build();
        }
    }
}

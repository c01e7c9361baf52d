package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.sql.cli.SqlTables;
import dev.gauntlet.tpcc.checks.ConsistencyChecks;
import dev.gauntlet.tpcc.checks.NothingLost;
import dev.gauntlet.tpcc.figures.MixAudit;
import dev.gauntlet.tpcc.schema.LoadRecord;
import dev.gauntlet.tpcc.schema.Schema;
import dev.gauntlet.tpcc.workload.CommittedOrders;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The TPC-C tables as the generic {@code check} and {@code drop} see them. {@code init} and {@code run} are TPC-C's
 * own commands ({@link InitCommand}: a resumable load in parallel; {@link RunCommand}). Like {@code run}, {@code check}
 * refuses a partial load in one line ({@link PartialLoad}).
 */
final class TpccTables implements SqlTables<LoadRecord> {

    /** {@code check}'s own options. */
    static final class CheckOptions {
        @Option(names = "--expensive",
                description = "Also run the expensive checks (3.3.2.6, 3.3.2.10, 3.3.2.12): full joins of order_line "
                        + "with order and customer; minutes on hundreds of warehouses.")
        boolean expensive;

        @Option(names = "--result", paramLabel = "FILE",
                description = "Also audit the transaction mix of a run's result.json (spec 9.2); a run directory works too.")
        Path result;
    }

    private final CheckOptions check = new CheckOptions();

    @Override
    public String name() {
        return TpccDatabase.NAME;
    }

    @Override
    public String tables() {
        return "the TPC-C tables";
    }

    @Override
    public String description(String command) {
        return switch (command) {
            case "check" -> "Checks the TPC-C consistency conditions (spec 3.3.2.1-3.3.2.12, as cockroach workload check "
                    + "tpcc) in one read-only snapshot.%n"
                    + "3.3.2.6, 10 and 12 join per order or customer and run only with --expensive; 3.3.2.11 holds only "
                    + "until the first Delivery and is skipped once one has run.%n"
                    + "Exit 0 when every check passes or is skipped, 1 when one fails.";
            case "drop" -> "Drops the nine TPC-C tables and the load record.";
            default -> SqlTables.super.description(command);
        };
    }

    @Override
    public List<String> examples(String command) {
        return switch (command) {
            case "check" -> List.of("bench-tpcc check                  # the embedded PostgreSQL's data",
                    "bench-tpcc check --expensive --url jdbc:postgresql://host:5432/db --user bench",
                    "bench-tpcc check --result results/tpcc-20261123-183750-e7315e   # also audit that run's mix",
                    "bench-tpcc check --ledger results/tpcc-20261123-183750-e7315e   # every New-Order it heard commit");
            default -> List.of("bench-tpcc " + command, "bench-tpcc " + command
                    + " --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it");
        };
    }

    @Override
    public Object checkOptions() {
        return check;
    }

    /**
     * The complete load, or null where there are no tables or nothing was loaded; a partial load (interrupted, or still
     * under way) is refused here in one line, before {@code check} says anything: its data cannot be judged.
     */
    @Override
    public LoadRecord loaded(Connection c) throws SQLException {
        LoadRecord load = LoadRecord.find(c);
        if (load == null || load.empty()) {
            return null;
        }
        PartialLoad.refuse(c, load, c.getMetaData().getURL());
        return load;
    }

    /** A complete load ({@link #loaded} refuses the others): {@code 4 warehouses}. */
    @Override
    public String describe(LoadRecord loaded) {
        return LoadRecord.warehouses(loaded.warehouses());
    }

    @Override
    public void drop(Connection c) throws SQLException {
        Schema.drop(c);
    }

    /** The consistency conditions and, with --result, the mix audit of that run (read first: a wrong path fails fast). */
    @Override
    public List<Check> checks(Connection c, LoadRecord loaded) throws SQLException {
        RunResult run = check.result != null ? ResultFile.read(check.result) : null;
        List<Check> all = new ArrayList<>(ConsistencyChecks.run(c, check.expensive));
        if (run != null) {
            all.addAll(MixAudit.checks(run));
        }
        return all;
    }

    /** The nothing-lost check of the committed orders a run left in its directory. */
    @Override
    public List<Check> ledgerChecks(Connection c, LoadRecord loaded, Path dir) throws SQLException {
        CommittedOrders orders = CommittedOrders.read(dir);
        if (orders == null) {
            throw new BadInputException(dir + " holds no " + CommittedOrders.FILE + " (the committed New-Orders a "
                    + "run of bench-tpcc keeps)");
        }
        return List.of(NothingLost.run(c, orders));
    }

    @Override
    public String checkName(LoadRecord loaded) {
        return check.result != null ? "Consistency checks and mix audit" : "Consistency checks";
    }
}

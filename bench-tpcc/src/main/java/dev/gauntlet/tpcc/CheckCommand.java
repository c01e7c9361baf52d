package dev.gauntlet.tpcc;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Redaction;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.RunResult;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.tpcc.checks.ConsistencyChecks;
import dev.gauntlet.tpcc.figures.MixAudit;
import dev.gauntlet.tpcc.schema.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench-tpcc check}: the consistency conditions of clause 3.3.2 against a loaded (and possibly
 * benchmarked) database, and optionally the transaction-mix audit of clause 9.2 against a run's result.
 * It reads only; a failed condition is exit 1, so a script can gate on it after a run or a fault.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks the TPC-C consistency conditions (spec 3.3.2.1-3.3.2.12, as cockroach workload check tpcc) "
                + "in one read-only snapshot.",
                "3.3.2.6, 10 and 12 join per order or customer and run only with --expensive; 3.3.2.11 holds only "
                        + "until the first Delivery and is skipped once one has run.",
                "Exit 0 when every check passes or is skipped, 1 when one fails."},
        footer = {"", "Examples:",
                "  bench-tpcc check                  # the embedded PostgreSQL's data",
                "  bench-tpcc check --expensive --url jdbc:postgresql://host:5432/db --user bench",
                "  bench-tpcc check --result results/tpcc-20261123-183750-e7315e   # also audit that run's mix"})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--expensive",
            description = "Also run the expensive checks (3.3.2.6, 3.3.2.10, 3.3.2.12): full joins of order_line "
                    + "with order and customer; minutes on hundreds of warehouses.")
    boolean expensive;

    @Option(names = "--result", paramLabel = "FILE",
            description = "Also audit the transaction mix of a run's result.json (spec 9.2); a run directory works too.")
    Path result;

    @Override
    public Integer call() {
        // Read the result first: a wrong path should not cost a database connection or a long check.
        RunResult run = result != null ? ResultFile.read(result) : null;
        List<Check> consistency;
        try (Database db = connection.open(TpccDatabase.NAME, System.out);
                Connection c = db.settings().connectForAdmin()) {
            if (!Schema.exists(c)) {
                throw new BadInputException("no TPC-C schema at " + Redaction.url(db.settings().url())
                        + "; run init first");
            }
            System.out.println("Checking consistency in one snapshot" + (expensive ? ", expensive checks included"
                    : " (expensive checks skipped; --expensive runs them)") + "...");
            consistency = ConsistencyChecks.run(c, expensive);
        } catch (SQLException e) {
            throw new RunFailedException("consistency checks could not run: " + SqlStates.message(e), e);
        }
        List<Check> mix = run != null ? MixAudit.checks(run) : List.of();

        List<Check> all = new ArrayList<>(consistency);
        all.addAll(mix);
        CheckTable.print(System.out, all);
        System.out.println(CheckTable.summary("Consistency checks", consistency));
        if (run != null) {
            System.out.println(CheckTable.summary("Mix audit (" + result + ")", mix));
        }
        List<Check> failed = all.stream().filter(k -> k.status() == Check.Status.FAIL).toList();
        if (!failed.isEmpty()) {
            throw new RunFailedException((run != null ? "checks" : "consistency checks") + " failed: "
                    + failed.stream().map(Check::name).collect(Collectors.joining("; ")));
        }
        return ExitCode.OK;
    }
}

package dev.gauntlet.trainevents;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.sql.cli.ConnectionOptions;
import dev.gauntlet.trainevents.checks.EventChecks;
import dev.gauntlet.trainevents.workload.Variant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-trainevents check}: what the tables alone can say; exit 1 when a check fails. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks the tables a run (or init) left: no event both live and archived, status rows and "
                + "events match, only terminal events archived, each payload's lifecycle equals its status, and the "
                + "flat columns equal the payload's values.",
                "A run checks more (no event lost, none unexpected, no process or archive it heard commit undone) "
                        + "from the ledger it keeps while it runs."},
        footer = {"", "Examples:",
                "  bench-trainevents check     # the tables the last run on the embedded PostgreSQL left",
                "  bench-trainevents check --url jdbc:postgresql://db:5432/rail --user bench --password"})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        List<Check> checks = connection.admin(TrainEventsCommand.NAME, "checks", c -> {
            Variant v = Variant.installed(c).orElseThrow(() -> new BadInputException(
                    "no train_events table here; run init or run first"));
            System.out.println("Variant: " + v);
            return SqlChecks.run(c, EventChecks.tables(v), CheckScope.all());
        });
        CheckTable.print(System.out, checks);
        System.out.println(CheckTable.summary("train-event checks", checks));
        return checks.stream().anyMatch(k -> k.status() == Check.Status.FAIL) ? ExitCode.FAILED : ExitCode.OK;
    }
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.Redaction;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code check} of a {@link SqlTables}: its checks in one snapshot, a table of them and a summary line; when one fails,
 * a line naming the failed ones on standard error and exit 1, so a script can gate on it after a run or a fault.
 */
@Command(name = "check", mixinStandardHelpOptions = true)
final class CheckTables<L> implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    private final SqlTables<L> definition;

    CheckTables(SqlTables<L> definition) {
        this.definition = definition;
    }

    /** The checks and what they were named. */
    private record Checked(String name, List<Check> checks) {
    }

    @Override
    public Integer call() {
        Checked checked = connection.admin(definition.name(), "checks", c -> {
            L loaded = definition.loaded(c);
            if (loaded == null) {
                throw new BadInputException("no " + definition.name() + " tables at "
                        + Redaction.url(c.getMetaData().getURL()) + "; run init first");
            }
            System.out.println("Checking " + definition.describe(loaded) + " in one snapshot...");
            return new Checked(definition.checkName(loaded), definition.checks(c, loaded));
        });
        CheckTable.print(System.out, checked.checks());
        System.out.println(CheckTable.summary(checked.name(), checked.checks()));
        List<String> failed = checked.checks().stream().filter(k -> k.status() == Check.Status.FAIL)
                .map(Check::name).toList();
        if (!failed.isEmpty()) {
            throw new RunFailedException(checked.name().toLowerCase(Locale.ROOT) + " failed: "
                    + failed.stream().collect(Collectors.joining("; ")));
        }
        return ExitCode.OK;
    }
}

package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Check;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code check} of a {@link SqlWorkload}: its checks, a table of them, exit 1 when one fails. */
@Command(name = "check", mixinStandardHelpOptions = true)
final class CheckTables<L> implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    private final SqlWorkload<L, ?> definition;

    CheckTables(SqlWorkload<L, ?> definition) {
        this.definition = definition;
    }

    @Override
    public Integer call() {
        List<Check> checks = connection.admin(definition.name(), "checks", c -> {
            L loaded = definition.loaded(c);
            if (loaded == null) {
                throw new BadInputException(definition.tables() + " is not loaded; run init first");
            }
            return definition.checks(c, loaded);
        });
        CheckTable.print(System.out, checks);
        System.out.println(CheckTable.summary(definition.name() + " checks", checks));
        return checks.stream().anyMatch(k -> k.status() == Check.Status.FAIL) ? ExitCode.FAILED : ExitCode.OK;
    }
}

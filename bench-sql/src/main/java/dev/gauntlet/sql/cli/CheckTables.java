package dev.gauntlet.sql.cli;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.core.report.RunReport;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.core.result.ResultFile;
import dev.gauntlet.core.result.ResultFormatException;
import dev.gauntlet.core.result.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.gauntlet.core.result.Redaction;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code check} of a {@link SqlTables}: its checks in one snapshot, a table of them and a summary line; when one fails,
 * a line naming the failed ones on standard error and exit 1, so a script can gate on it after a run or a fault.
 */
@Command(name = "check", mixinStandardHelpOptions = true)
final class CheckTables<L> implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--ledger", paramLabel = "DIR",
            description = "Check instead what the run in DIR heard commit against the database, from the ledger it "
                    + "left there (a run whose driver died: recover its report with 'report recover DIR'). When DIR "
                    + "holds result.json the checks are added to it and report.md is written again.")
    Path ledger;

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
            if (ledger != null) {
                if (!Files.isDirectory(ledger)) {
                    throw new BadInputException("--ledger " + ledger + " is not a run directory");
                }
                System.out.println("Checking the ledger in " + ledger + " against " + definition.describe(loaded)
                        + "...");
                List<Check> checks;
                try {
                    checks = definition.ledgerChecks(c, loaded, ledger);
                } catch (ResultFormatException e) {
                    throw new BadInputException(e.getMessage(), e);
                }
                if (checks == null) {
                    throw new BadInputException("--ledger: " + definition.name() + " keeps no ledger to check");
                }
                return new Checked(definition.name() + " ledger checks", checks);
            }
            System.out.println("Checking " + definition.describe(loaded) + " in one snapshot...");
            return new Checked(definition.checkName(loaded), definition.checks(c, loaded));
        });
        if (ledger != null && Files.isRegularFile(ledger.resolve(ResultFile.NAME))) {
            addToResult(checked.checks());
        }
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

    /** The ledger's checks into the run's result (replacing any of the same name), and its report written again. */
    private void addToResult(List<Check> checks) {
        RunResult run;
        try {
            run = ResultFile.read(ledger);
        } catch (ResultFormatException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        java.util.Set<String> names = checks.stream().map(Check::name).collect(Collectors.toSet());
        List<Check> all = new java.util.ArrayList<>(run.checks() == null ? List.of() : run.checks().stream()
                .filter(k -> !names.contains(k.name())).toList());
        all.addAll(checks);
        RunResult checked = run.toBuilder().checks(all).build();
        try {
            ResultFile.write(checked, ledger.resolve(ResultFile.NAME));
            RunReport.write(checked, ledger);
        } catch (java.io.IOException e) {
            throw new RunFailedException("cannot write the checks into " + ledger + ": " + e.getMessage(), e);
        }
        System.out.println("Added to " + ledger.resolve(ResultFile.NAME) + " and " + ledger.resolve(RunReport.MARKDOWN));
    }
}

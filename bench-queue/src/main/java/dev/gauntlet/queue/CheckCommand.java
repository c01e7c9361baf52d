package dev.gauntlet.queue;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.queue.checks.TableChecks;
import dev.gauntlet.queue.schema.LogSchema;
import dev.gauntlet.queue.schema.QueueSchema;
import dev.gauntlet.sql.check.CheckScope;
import dev.gauntlet.sql.check.SqlChecks;
import dev.gauntlet.sql.cli.ConnectionOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code bench-queue check}: what the tables alone can say; exit 1 when a check fails. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks the tables a run left: the log gapless from its retained start to each tip and every "
                + "committed offset within it; a queue holding no message twice (nor queued and archived at once).",
                "A run verifies more (none lost, none delivered twice) from the ledger it keeps while it runs."},
        footer = {"", "Examples:",
                "  bench-queue check     # the tables the last run on the embedded PostgreSQL left",
                "  bench-queue check --url jdbc:postgresql://host:5432/db --user bench --password   # prompts for it"})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        List<Check> checks = connection.admin(QueueCommand.NAME, "checks", c -> {
            List<Check> all = new ArrayList<>();
            int partitions = LogSchema.partitions(c);
            if (partitions > 0) {
                all.addAll(SqlChecks.run(c, TableChecks.pubsub(partitions), CheckScope.all()));
            }
            if (QueueSchema.exists(c)) {
                boolean archived;
                try (var s = c.createStatement();
                     var rs = s.executeQuery("SELECT to_regclass('queue_archive') IS NOT NULL")) {
                    rs.next();
                    archived = rs.getBoolean(1);
                }
                all.addAll(SqlChecks.run(c, TableChecks.queue(archived), CheckScope.all()));
            }
            if (all.isEmpty()) {
                throw new BadInputException("neither a log nor a queue here; run init or run first");
            }
            return all;
        });
        CheckTable.print(System.out, checks);
        System.out.println(CheckTable.summary("queue checks", checks));
        return checks.stream().anyMatch(k -> k.status() == Check.Status.FAIL) ? ExitCode.FAILED : ExitCode.OK;
    }
}

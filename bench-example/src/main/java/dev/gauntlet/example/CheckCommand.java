package dev.gauntlet.example;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.CheckTable;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.result.Check;
import dev.gauntlet.example.checks.KvChecks;
import dev.gauntlet.example.schema.KvSchema;
import dev.gauntlet.sql.cli.ConnectionOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-kv check}: the data's invariants; exit 1 when one fails. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Checks the kv table in one read-only snapshot: every loaded key present, none outside the "
                + "range, every value its loaded length. Exit 0 when all pass, 1 when one fails.",
        footer = {"", "Examples:",
                "  bench-kv check",
                "  bench-kv check --url jdbc:postgresql://host:5432/db --user bench",
                "  bench-kv check --keys 100000   # as loaded: also finds the highest keys missing"})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--keys", paramLabel = "N", description = "Keys that were loaded (default: the highest key + 1).")
    Long keys;

    @Override
    public Integer call() {
        List<Check> checks = connection.admin(KvCommand.NAME, "checks", c -> {
            KvSchema.Loaded loaded = KvSchema.loaded(c);
            if (loaded == null) {
                throw new BadInputException("no kv table; run init first");
            }
            return KvChecks.run(c, keys != null ? keys : highestKey(c) + 1, loaded.valueSize());
        });
        CheckTable.print(System.out, checks);
        System.out.println(CheckTable.summary("kv checks", checks));
        return checks.stream().anyMatch(k -> k.status() == Check.Status.FAIL) ? ExitCode.FAILED : ExitCode.OK;
    }

    private static long highestKey(Connection c) throws SQLException {
        try (var s = c.createStatement(); var rs = s.executeQuery("SELECT coalesce(max(k), -1) FROM kv")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

package dev.gauntlet.example;

import dev.gauntlet.core.cli.BadInputException;
import dev.gauntlet.core.cli.ExitCode;
import dev.gauntlet.core.cli.RunFailedException;
import dev.gauntlet.example.schema.KvSchema;
import dev.gauntlet.sql.Database;
import dev.gauntlet.sql.SqlStates;
import dev.gauntlet.sql.cli.ConnectionOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-kv init}: creates and loads the table. */
@Command(name = "init", mixinStandardHelpOptions = true, description = "Creates the kv table and loads --keys rows.",
        footer = {"", "Examples:",
                "  bench-kv init                                          # 10,000 keys of 100 bytes, embedded",
                "  bench-kv init --url jdbc:postgresql://host:5432/db --user bench --keys 1000000",
                "  bench-kv init --keys 100000 --value-size 1000 --drop   # replaces a loaded table"})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "10000", description = "Rows to load (default: ${DEFAULT-VALUE}).")
    long keys;

    @Option(names = "--value-size", paramLabel = "BYTES", defaultValue = "100",
            description = "Bytes per value (default: ${DEFAULT-VALUE}).")
    int valueSize;

    @Option(names = "--drop", description = "Drop a loaded table first.")
    boolean drop;

    @Override
    public Integer call() {
        try (Database db = connection.open(KvCommand.NAME, System.out)) {
            load(db, keys, valueSize, drop);
            return ExitCode.OK;
        }
    }

    /** Loads unless a table is there (then refuses, unless {@code drop}); in one transaction, so never half-loaded. */
    static KvSchema.Loaded load(Database db, long keys, int valueSize, boolean drop) {
        if (keys < 1 || valueSize < 1) {
            throw new BadInputException("--keys and --value-size must be at least 1 (got " + keys + " and " + valueSize + ")");
        }
        try (Connection c = db.settings().connectForAdmin()) {
            c.setAutoCommit(false);
            if (drop) {
                KvSchema.drop(c);
            } else if (KvSchema.loaded(c) != null) {
                throw new BadInputException("a kv table is already loaded; init --drop replaces it");
            }
            long start = System.nanoTime();
            KvSchema.load(c, keys, valueSize);
            c.commit();
            System.out.printf(java.util.Locale.ROOT, "Loaded %,d keys of %d bytes in %.1f s%n", keys, valueSize,
                    (System.nanoTime() - start) / 1e9);
            return new KvSchema.Loaded(keys, valueSize);
        } catch (SQLException e) {
            throw new RunFailedException("load failed: " + SqlStates.message(e), e);
        }
    }
}
